import { ServicePrint } from '../../features/print/components/service-print';

/** /print?service_token=…: the staff print view (docs/product.md, docs/screens-and-routes.md), a bundle of its own. */
export function Component() {
  return <ServicePrint />;
}
