import { useStaffRounds } from '../api/staff-api';
import { StaffSelect } from './staff-select';

export const EVERY_ROUND = 'Every round';

/** The admission round filter of the list and the export form ('' is every round). */
export function RoundSelect({
  value,
  onChange,
}: {
  value: string;
  onChange: (round: string) => void;
}) {
  const rounds = useStaffRounds();
  const known = rounds.data?.rounds ?? [];
  // A round in the address that the list does not know yet (still loading) keeps its option.
  const options = known.some((r) => r.code === value) || value === '' ? [] : [value];
  return (
    <StaffSelect
      label="Round"
      value={value}
      onChange={onChange}
      data={[
        { value: '', label: EVERY_ROUND },
        ...known.map((r) => ({ value: r.code, label: `${r.name} (${r.code})` })),
        ...options.map((code) => ({ value: code, label: code })),
      ]}
    />
  );
}
