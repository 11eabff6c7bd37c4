import { Alert } from '@mantine/core';
import { type PartnerConfig } from '@admissions/form';
import { getPartner } from '../../../shared/lib/partner';

/** docs/product.md: the partner's alert shows only between its start and end dates (inclusive). */
export function isAlertActive(alert: PartnerConfig['alert'], now: Date): boolean {
  if (!alert.start || !alert.end || !alert.message) return false;
  const today = now.toISOString().slice(0, 10);
  return alert.start <= today && today <= alert.end;
}

export function DateAlert({
  alert = getPartner().alert,
  now = new Date(),
}: {
  alert?: PartnerConfig['alert'];
  now?: Date;
}) {
  if (!isAlertActive(alert, now)) return null;
  return (
    <Alert color="amber" variant="light" mb="md" data-testid="date-alert">
      {alert.message}
    </Alert>
  );
}
