import { evaluateCondition, resolveText, type Answers, type Question } from '@admissions/form';
import { INPUT_REGISTRY } from '../inputs/registry';
import { useApplication } from './application-provider';
import { getPartner } from '../../../shared/lib/partner';

/** The asterisk follows the rule: a question required only under a condition shows it then. */
function isRequiredNow(question: Question, answers: Answers): boolean {
  const rule = question.required;
  if (rule === undefined) return false;
  return rule.when === undefined || evaluateCondition(rule.when, answers);
}

/** One question: its component from the registry, its value and its errors. */
export function QuestionField({ question }: { question: Question }) {
  const app = useApplication();
  const Input = INPUT_REGISTRY[question.type];
  const keys = [question.key, ...(question.yearKey ? [question.yearKey] : [])];
  const messages = [...new Set(keys.flatMap((key) => app.errors[key] ?? []))];
  return (
    <Input
      question={question}
      id={question.key}
      label={resolveText(question.label, getPartner())}
      {...(question.help ? { help: resolveText(question.help, getPartner()) } : {})}
      value={app.answers[question.key] ?? ''}
      answers={app.answers}
      {...(messages.length > 0 ? { error: messages.join(' ') } : {})}
      required={isRequiredNow(question, app.answers)}
      isLoggedIn={app.snapshot.is_logged_in}
      onChange={app.setAnswer}
      onCommit={app.commit}
      onUploadStatus={app.reportUploadStatus}
    />
  );
}
