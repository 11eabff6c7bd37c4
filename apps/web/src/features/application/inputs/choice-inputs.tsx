import { Checkbox, Group, NativeSelect, Radio, Stack, Text } from '@mantine/core';
import {
  DEFAULT_PARTNER,
  isChecked,
  resolveOptions,
  type Answers,
  type OptionSource,
} from '@admissions/form';
import type { InputProps } from './input-props';
import classes from './inputs.module.css';

function optionsOf(source: OptionSource | undefined, answers: Answers) {
  if (!source) return [];
  return resolveOptions(source, { answers, now: new Date(), partner: DEFAULT_PARTNER });
}

/** Native selects: keyboard and screen-reader behaviour every browser already gets right. */
function selectData(source: OptionSource | undefined, answers: Answers, placeholder: string) {
  const options = optionsOf(source, answers).filter((o) => o.value !== '');
  return [{ value: '', label: placeholder }, ...options];
}

export function SelectField(props: InputProps) {
  return (
    <NativeSelect
      id={props.id}
      label={props.label}
      description={props.help}
      error={props.error}
      withAsterisk={props.required}
      value={props.value}
      data={selectData(props.question.options, props.answers, 'Select an option')}
      onChange={(e) => props.onChange(props.question.key, e.currentTarget.value, 'now')}
      maw="30rem"
    />
  );
}

export function RadioField(props: InputProps) {
  const options = optionsOf(props.question.options, props.answers);
  return (
    <Radio.Group
      label={props.label}
      description={props.help}
      error={props.error}
      withAsterisk={props.required}
      value={props.value}
      onChange={(value) => props.onChange(props.question.key, value, 'now')}
    >
      <Group mt="xs" gap="lg">
        {options.map((option, index) => (
          <Radio
            key={option.value}
            // The first choice carries the question's id, so summary links land on the group.
            {...(index === 0 ? { id: props.id } : {})}
            value={option.value}
            label={option.label}
            aria-invalid={props.error ? true : undefined}
          />
        ))}
      </Group>
    </Radio.Group>
  );
}

export function CheckboxField(props: InputProps) {
  return (
    <Checkbox
      id={props.id}
      label={props.label}
      description={props.help}
      error={props.error}
      checked={isChecked(props.value)}
      aria-invalid={props.error ? true : undefined}
      onChange={(e) =>
        props.onChange(props.question.key, e.currentTarget.checked ? 'true' : 'false', 'now')
      }
    />
  );
}

/** Month and year as two selects in one group; their errors are combined (SPEC §5). */
export function MonthYearField(props: InputProps) {
  const { question } = props;
  const yearKey = question.yearKey ?? `${question.key}_year`;
  const errorId = `${props.id}-error`;
  const helpId = `${props.id}-help`;
  const describedBy = [props.help ? helpId : '', props.error ? errorId : '']
    .filter(Boolean)
    .join(' ');
  const invalid = props.error !== undefined;
  return (
    <fieldset className={classes.fieldset}>
      <legend className={classes.legend}>
        {props.label}
        {props.required && (
          <span className={classes.asterisk} aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </legend>
      {props.help && (
        <Text id={helpId} size="sm" c="dimmed">
          {props.help}
        </Text>
      )}
      <Group gap="sm" align="flex-end">
        <NativeSelect
          id={props.id}
          label="Month"
          value={props.value}
          data={selectData(question.options, props.answers, 'Month')}
          error={invalid}
          aria-describedby={describedBy || undefined}
          onChange={(e) => props.onChange(question.key, e.currentTarget.value, 'now')}
          w="12rem"
        />
        <NativeSelect
          id={yearKey}
          label="Year"
          value={props.answers[yearKey] ?? ''}
          data={selectData(question.yearOptions, props.answers, 'Year')}
          error={invalid}
          aria-describedby={describedBy || undefined}
          onChange={(e) => props.onChange(yearKey, e.currentTarget.value, 'now')}
          w="9rem"
        />
      </Group>
      {props.error && (
        <Stack gap={0}>
          <Text id={errorId} size="sm" className={classes.error}>
            {props.error}
          </Text>
        </Stack>
      )}
    </fieldset>
  );
}
