import { ServicePrint } from '../../features/print/components/service-print';

/** /print?service_token=…: the staff print view (SPEC §1–2), a bundle of its own. */
export function Component() {
  return <ServicePrint />;
}
