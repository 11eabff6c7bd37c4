import {
  evaluateCondition,
  resolveText,
  type Answers,
  type OptionSource,
  type Question,
} from '@admissions/form';
import { INPUT_REGISTRY } from '../inputs/registry';
import {
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

/**
 * The answers an input renders from: its own keys and the answers its option lists follow.
 * Nothing else, so that another question's keystroke leaves this one alone.
 */
function listRenderKeys(question: Question): string[] {
  return [
    question.key,
    ...(question.yearKey ? [question.yearKey] : []),
    ...optionControlKeys(question.options),
    ...optionControlKeys(question.yearOptions),
  ];
}

/** What the question shows, as plain values: equal values mean nothing to re-render. */
function selectQuestionView(question: Question, keys: readonly string[], view: AnswersView) {
  const errorKeys = [question.key, ...(question.yearKey ? [question.yearKey] : [])];
  const messages = [...new Set(errorKeys.flatMap((key) => view.errors[key] ?? []))];
  return [
    messages.join(' '),
    isRequiredNow(question, view.answers),
    ...keys.map((key) => view.answers[key] ?? ''),
  ] as const;
}

/** One question: its component from the registry, its value and its errors. */
export function QuestionField({ question }: { question: Question }) {
  const keys = listRenderKeys(question);
  const [error, required, ...values] = useAnswersSelector(
    (view) => selectQuestionView(question, keys, view),
    isShallowEqual,
  );
  const readAnswers = useAnswersReader();
  const isLoggedIn = useIsLoggedIn();
  const actions = useApplicationActions();
  const Input = INPUT_REGISTRY[question.type];
  const answers = Object.fromEntries(keys.map((key, index) => [key, values[index] ?? '']));
  return (
    <Input
      question={question}
      id={question.key}
      label={resolveText(question.label, getPartner())}
      {...(question.help ? { help: resolveText(question.help, getPartner()) } : {})}
      value={answers[question.key] ?? ''}
      answers={answers}
      readAnswers={readAnswers}
      {...(error ? { error } : {})}
      required={required}
      isLoggedIn={isLoggedIn}
      onChange={actions.setAnswer}
      onCommit={actions.commit}
      onUploadStatus={actions.reportUploadStatus}
    />
  );
}
