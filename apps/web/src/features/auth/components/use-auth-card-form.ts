import { useRef, type ChangeEvent, type ReactNode } from 'react';
import { useForm, type FormErrors } from '@mantine/form';
import { validateAuthForm, type AuthFields, type AuthForm } from '@admissions/form';
import { renderFieldError } from './field-error';

type FieldName = keyof AuthFields;

/** The card's rules (packages/form) as Mantine's errors: each field's messages, one per line. */
function validateCard(kind: AuthForm, values: AuthFields): FormErrors {
  return Object.fromEntries(
    Object.entries(validateAuthForm(kind, values)).map(([name, messages]) => [
      name,
      renderFieldError(messages),
    ]),
  );
}

/**
 * An auth card's fields in @mantine/form, with the docs/behaviour.md rule: validate on every
 * change and on submit. A field shows its messages once it has been changed, and every field
 * does after a submit attempt.
 */
export function useAuthCardForm(kind: AuthForm, initialValues: AuthFields) {
  const attempted = useRef(false);
  const form = useForm<AuthFields>({
    mode: 'controlled',
    initialValues,
    validate: (values) => validateCard(kind, values),
    validateInputOnChange: true,
  });

  /** Mantine re-checks the changed field; one rule can read another (the confirmation). */
  const recheckShownFields = (changed: FieldName) => {
    for (const name of Object.keys(form.getValues()) as FieldName[]) {
      if (name !== changed && (attempted.current || form.isTouched(name))) {
        form.validateField(name);
      }
    }
  };

  /** The props of one input: value, change handler and the messages it shows. */
  const field = (name: FieldName) => {
    // Focus alone does not count as a change: a field stays quiet until it is edited.
    const props = form.getInputProps(name, { withFocus: false });
    return {
      value: (props.value as string | undefined) ?? '',
      error: props.error as ReactNode,
      onChange: (event: ChangeEvent<HTMLInputElement>) => {
        props.onChange(event);
        recheckShownFields(name);
      },
    };
  };

  /** Marks the attempt (every field shows its messages) and answers whether to call the server. */
  const validateForSubmit = (): boolean => {
    attempted.current = true;
    return !form.validate().hasErrors;
  };

  return { values: form.values, field, validateForSubmit };
}
