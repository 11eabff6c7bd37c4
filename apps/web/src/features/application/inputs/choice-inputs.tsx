import { Checkbox, Group, NativeSelect, Radio, Text } from '@mantine/core';
import { isChecked, resolveOptions, type Answers, type OptionSource } from '@admissions/form';
import type { InputProps } from './input-props';
import classes from './inputs.module.css';
import { getPartner } from '../../../shared/lib/partner';

function optionsOf(source: OptionSource | undefined, answers: Answers) {
  if (!source) return [];
  return resolveOptions(source, { answers, now: new Date(), partner: getPartner() });
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
      // Mantine's Checkbox has no withAsterisk: the same red mark as the other inputs' labels,
      // hidden from screen readers, which hear aria-required instead.
      label={
        props.required ? (
          <>
            {props.label}{' '}
            <span className={classes.asterisk} aria-hidden="true">
              *
            </span>
          </>
        ) : (
          props.label
        )
      }
      description={props.help}
      error={props.error}
      checked={isChecked(props.value)}
      aria-required={props.required ? true : undefined}
      aria-invalid={props.error ? true : undefined}
      onChange={(e) =>
        props.onChange(props.question.key, e.currentTarget.checked ? 'true' : 'false', 'now')
      }
    />
  );
}

/**
 * Month and year as two native selects in one fieldset; their errors are combined (docs/validation.md) in
 * one message that both selects reference. Plain elements, because Mantine's inputs replace an
 * aria-describedby they did not compute themselves.
 */
export function MonthYearField(props: InputProps) {
  const { question } = props;
  const yearKey = question.yearKey ?? `${question.key}_year`;
  const errorId = `${props.id}-error`;
  const helpId = `${props.id}-help`;
  const describedBy =
    [props.help ? helpId : '', props.error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  const invalid = props.error !== undefined ? true : undefined;
  const parts = [
    { id: props.id, key: question.key, label: 'Month', source: question.options, width: '12rem' },
    { id: yearKey, key: yearKey, label: 'Year', source: question.yearOptions, width: '9rem' },
  ];
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
        {parts.map((part) => (
          <div key={part.key} className={classes.part} style={{ width: part.width }}>
            <label htmlFor={part.id} className={classes.partLabel}>
              {part.label}
            </label>
            <select
              id={part.id}
              className={classes.select}
              value={props.answers[part.key] ?? ''}
              aria-invalid={invalid}
              aria-describedby={describedBy}
              onChange={(e) => props.onChange(part.key, e.currentTarget.value, 'now')}
            >
              {selectData(part.source, props.answers, part.label).map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </div>
        ))}
      </Group>
      {props.error && (
        <Text id={errorId} size="sm" className={classes.error}>
          {props.error}
        </Text>
      )}
    </fieldset>
  );
}
