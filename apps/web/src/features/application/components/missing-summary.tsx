import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { Alert, Anchor, List, Text, Title } from '@mantine/core';
import { APPLICATION_DEFINITION, summarizeErrors } from '@admissions/form';
import { useAnswersSelector, useStatusSelector } from '../state/application-context';

export const SUMMARY_TITLE = "We're missing some information!";
export const SUMMARY_BODY =
  'The links below show what still needs to be completed. Please complete them and then resubmit your application.';

/** docs/product.md: only while validating; links `{page}#{questionKey}`, plain text without a page. */
export function MissingSummary() {
  const validating = useStatusSelector((view) => view.snapshot.web_status === 'validating');
  const summaryFocusRequest = useStatusSelector((view) => view.summaryFocusRequest);
  const errors = useAnswersSelector((view) => view.errors);
  const ref = useRef<HTMLDivElement>(null);
  const hasErrors = Object.keys(errors).length > 0;
  const visible = validating && hasErrors;

  useEffect(() => {
    if (summaryFocusRequest > 0 && ref.current) {
      ref.current.scrollIntoView({ block: 'start' });
      ref.current.focus({ preventScroll: true });
    }
  }, [summaryFocusRequest]);

  if (!visible) return null;
  const summary = summarizeErrors(APPLICATION_DEFINITION, errors);
  if (import.meta.env.DEV && summary.unmapped.length > 0) {
    // docs/errors.md missing-page warning, local development only.
    console.warn(
      `Question keys without a page: ${summary.unmapped.map((i) => i.key).join(', ')}. ` +
        'They do not correlate to a page; update the page mapping of the error summary.',
    );
  }
  return (
    <Alert
      ref={ref}
      tabIndex={-1}
      color="red"
      variant="light"
      mb="md"
      data-testid="missing-summary"
      aria-labelledby="missing-summary-title"
      role="region"
    >
      {/* Announced when it appears: the title lives in a live region. */}
      <div aria-live="assertive">
        <Title order={2} size="h3" id="missing-summary-title" c="red.9">
          {SUMMARY_TITLE}
        </Title>
      </div>
      <Text mt={4} mb="sm">
        {SUMMARY_BODY}
      </Text>
      {summary.pages.map((group) => (
        <div key={group.page}>
          <Text fw={700} mt="xs">
            {group.title}
          </Text>
          <List size="sm" spacing={2}>
            {group.items.map((item) => (
              <List.Item key={item.key}>
                {item.href ? (
                  <Anchor component={Link} to={`/${item.href}`} c="red.9">
                    {item.messages.join(' ')}
                  </Anchor>
                ) : (
                  item.messages.join(' ')
                )}
              </List.Item>
            ))}
          </List>
        </div>
      ))}
      {summary.unmapped.length > 0 && (
        <List size="sm" spacing={2} mt="xs">
          {summary.unmapped.map((item) => (
            <List.Item key={item.key}>{item.messages.join(' ')}</List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}
