import { CheckboxField, MonthYearField, RadioField, SelectField } from './choice-inputs';
import { FileField } from './file-field';
import type { InputRegistry } from './input-props';
import { AutocompleteField, TextOrPlaceField } from './autocomplete-field';
import { DateField, PasswordField, PhoneField, SsnField, TextareaField } from './text-inputs';

export const INPUT_REGISTRY: InputRegistry = {
  text: TextOrPlaceField,
  textarea: TextareaField,
  date: DateField,
  password: PasswordField,
  ssn: SsnField,
  select: SelectField,
  radio: RadioField,
  checkbox: CheckboxField,
  phone: PhoneField,
  'month-year': MonthYearField,
  autocomplete: AutocompleteField,
  file: FileField,
};
