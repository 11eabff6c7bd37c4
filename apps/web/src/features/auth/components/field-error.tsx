import { Fragment } from 'react';

/**
 * Mantine renders this in the input's error slot (a <p> tied to the input by aria-describedby),
 * so several messages become lines rather than a list.
 */
export function renderFieldError(messages: string[] | undefined) {
  if (!messages || messages.length === 0) return undefined;
  if (messages.length === 1) return messages[0];
  return messages.map((message, index) => (
    <Fragment key={message}>
      {index > 0 && <br />}
      {message}
    </Fragment>
  ));
}
