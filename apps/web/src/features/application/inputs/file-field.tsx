import { DocumentUpload } from './document-upload';
import type { InputProps } from './input-props';

export { ANONYMOUS_UPLOAD_MESSAGE } from './document-upload';

/** A document question: the upload widget; an anonymous visitor cannot upload (docs/roles.md). */
export function FileField(props: InputProps) {
  return (
    // The wrapper carries the question's id for summary links (focus goes to the file input).
    <div id={props.id}>
      <DocumentUpload
        answerKey={props.question.key}
        label={props.label}
        {...(props.help ? { description: props.help } : {})}
        {...(props.error ? { error: props.error } : {})}
        loggedIn={props.isLoggedIn}
        onAnswerChange={(value) => props.onChange(props.question.key, value, 'now')}
        onStatusChange={(status) => props.onUploadStatus?.(props.question.key, status)}
      />
    </div>
  );
}
