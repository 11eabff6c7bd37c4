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
      key={props.fieldKey}
      id={props.id}
      label={props.label}
      description={props.help}
      error={props.error}
      withAsterisk={props.required}
      {...props.bind(props.question.key, 'now')}
      data={selectData(props.question.options, props.answers, 'Select an option')}
      maw="30rem"
    />
  );
}

export function RadioField(props: InputProps) {
  const options = optionsOf(props.question.options, props.answers);
  const field = props.bind(props.question.key, 'now');
  return (
    <Radio.Group
      key={props.fieldKey}
      label={props.label}
      description={props.help}
      error={props.error}
      withAsterisk={props.required}
      defaultValue={field.defaultValue}
      onChange={field.onChange}
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
  const field = props.bind(props.question.key, 'now');
  return (
    <Checkbox
      key={props.fieldKey}
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
      defaultChecked={isChecked(field.defaultValue)}
      aria-required={props.required ? true : undefined}
      aria-invalid={props.error ? true : undefined}
      // Answers are strings: a checked box is 'true', not the boolean Mantine reads from it.
      onChange={(e) => field.onChange(e.currentTarget.checked ? 'true' : 'false')}
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
    <fieldset key={props.fieldKey} className={classes.fieldset}>
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
              {...props.bind(part.key, 'now')}
              aria-invalid={invalid}
              aria-describedby={describedBy}
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
