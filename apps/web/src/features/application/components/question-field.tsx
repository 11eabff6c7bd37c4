import {
  evaluateCondition,
  resolveText,
  type Answers,
  type OptionSource,
  type Question,
} from '@admissions/form';
import { INPUT_REGISTRY } from '../inputs/registry';
import {
  useAnswersForm,
  useAnswersReader,
  useAnswersSelector,
  useApplicationActions,
  useIsLoggedIn,
} from '../state/application-context';
import { isShallowEqual } from '../state/create-store';
import type { AnswersView } from '../state/answers-state';
import { getPartner } from '../../../shared/lib/partner';

/** The asterisk follows the rule: a question required only under a condition shows it then. */
function isRequiredNow(question: Question, answers: Answers): boolean {
  const rule = question.required;
  if (rule === undefined) return false;
  return rule.when === undefined || evaluateCondition(rule.when, answers);
}

function optionControlKeys(source: OptionSource | undefined): string[] {
  return source?.kind === 'dependent' ? [source.key] : [];
}

/** The answer keys the question's inputs hold: its own and, for a month-year, the year's. */
function listOwnKeys(question: Question): string[] {
  return [question.key, ...(question.yearKey ? [question.yearKey] : [])];
}

/**
 * The answers the question's option lists follow. Nothing else, its own included (its inputs
 * hold those), so that a keystroke anywhere leaves this question alone.
 */
function listControlKeys(question: Question): string[] {
  return [...optionControlKeys(question.options), ...optionControlKeys(question.yearOptions)];
}

/** What the question shows, as plain values: equal values mean nothing to re-render. */
function selectQuestionView(
  question: Question,
  controlKeys: readonly string[],
  view: AnswersView,
  fieldKey: (key: string) => string,
) {
  const ownKeys = listOwnKeys(question);
  const messages = [...new Set(ownKeys.flatMap((key) => view.errors[key] ?? []))];
  return [
    messages.join(' '),
    isRequiredNow(question, view.answers),
    // Read from the form as last rendered; view.formRenders makes the store ask again.
    ownKeys.map(fieldKey).join('|'),
    ...controlKeys.map((key) => view.answers[key] ?? ''),
  ] as const;
}

/** One question: its component from the registry, bound to the application's form. */
export function QuestionField({ question }: { question: Question }) {
  const controlKeys = listControlKeys(question);
  const form = useAnswersForm();
  const [error, required, fieldKey, ...values] = useAnswersSelector(
    (view) => selectQuestionView(question, controlKeys, view, (key) => form.fieldKey(key)),
    isShallowEqual,
  );
  const readAnswers = useAnswersReader();
  const isLoggedIn = useIsLoggedIn();
  const actions = useApplicationActions();
  const Input = INPUT_REGISTRY[question.type];
  const answers = Object.fromEntries(controlKeys.map((key, index) => [key, values[index] ?? '']));
  return (
    <Input
      question={question}
      id={question.key}
      label={resolveText(question.label, getPartner())}
      {...(question.help ? { help: resolveText(question.help, getPartner()) } : {})}
      fieldKey={fieldKey}
      bind={(key, mode) => form.bind(key, mode)}
      answers={answers}
      readAnswers={readAnswers}
      {...(error ? { error } : {})}
      required={required}
      isLoggedIn={isLoggedIn}
      onChange={actions.setAnswer}
      onFill={actions.fillAnswers}
      onCommit={actions.commit}
      onUploadStatus={actions.reportUploadStatus}
    />
  );
}
