import { useCallback, useMemo, useState } from 'react';
import {
  validateAuthForm,
  type AuthErrors,
  type AuthFields,
  type AuthForm,
} from '@admissions/form';

type FieldName = keyof AuthFields;

/**
 * Card state with the docs/behaviour.md rule: validate on every change and on submit. A field shows its
 * messages once it has been changed, and every field does after a submit attempt.
 */
export function useAuthForm(form: AuthForm, initialValues: AuthFields) {
  const [values, setValues] = useState<AuthFields>(initialValues);
  const [touched, setTouched] = useState<Partial<Record<FieldName, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);

  const errors = useMemo(() => validateAuthForm(form, values), [form, values]);

  const setValue = useCallback((name: FieldName, value: string) => {
    setValues((current) => ({ ...current, [name]: value }));
    setTouched((current) => (current[name] ? current : { ...current, [name]: true }));
  }, []);

  const visibleErrors: AuthErrors = {};
  for (const [name, messages] of Object.entries(errors) as [FieldName, string[]][]) {
    if (submitted || touched[name]) visibleErrors[name] = messages;
  }

  /** Marks the attempt and answers whether the card may call the server. */
  const validateForSubmit = useCallback((): boolean => {
    setSubmitted(true);
    return Object.keys(errors).length === 0;
  }, [errors]);

  return { values, setValue, errors, visibleErrors, validateForSubmit };
}
