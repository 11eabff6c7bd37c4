import { useId } from 'react';
import { Input } from '@mantine/core';

interface StaffSelectProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  data: readonly { value: string; label: string }[];
}

/**
 * A labelled native select built from Mantine's Input (as NativeSelect is). NativeSelect itself
 * is shared with the applicant's form pages, and sharing it would split it out of their chunk
 * into a file of its own on their first visit.
 */
export function StaffSelect({ label, value, onChange, data }: StaffSelectProps) {
  const id = useId();
  return (
    <Input.Wrapper id={id} label={label}>
      <Input
        id={id}
        component="select"
        value={value}
        onChange={(event) => onChange((event.currentTarget as HTMLSelectElement).value)}
        rightSection={<span aria-hidden>▾</span>}
        rightSectionPointerEvents="none"
      >
        {data.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </Input>
    </Input.Wrapper>
  );
}
