import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Button, Container, Stack, Text, Title } from '@mantine/core';
import type { ServicePrintResponse } from '@admissions/api-contract';
import type { ApplicationCover } from '@admissions/answer-view';
import { PrintView } from '@admissions/answer-view/web';
import { SERVICE_TOKEN_PARAM } from '../../../config/paths';
import { ServerError } from '../../../shared/api/errors';
import { setServiceUser } from '../../../shared/lib/session';
import { FullScreenLoader } from '../../../shared/ui/full-screen-loader';
import { useServicePrint } from '../api/get-service-print';
import { removeServiceToken, takeServiceToken } from '../lib/service-token';

export const PRINT_TITLE = 'Application | Undergraduate Application';
export const PRINT_LOADING_LABEL = 'Loading the application';
export const PRINT_ERROR_TITLE = 'This application cannot be shown';
export const PRINT_REOPEN_TITLE = 'Open the link again';
export const PRINT_REOPEN_MESSAGE =
  'For privacy, the access token was removed from the address bar when the application opened, ' +
  'so reloading the page cannot show it again. Open the link you were given again, or ask for a ' +
  'new one if it has expired.';

/**
 * The staff print view (docs/product.md): `?service_token=` makes the session a service user's, the token
 * moves from the address bar into memory, and the applicant's answers show as read-only text with
 * no header, footer, navigation, buttons or popover. The browser's own print prints it.
 */
export function ServicePrint() {
  const location = useLocation();
  const navigate = useNavigate();
  const [token] = useState(() => takeServiceToken(location.search));
  const tokenInUrl = new URLSearchParams(location.search).has(SERVICE_TOKEN_PARAM);
  const print = useServicePrint(token);

  useEffect(() => {
    if (token !== null) setServiceUser(true);
  }, [token]);

  // Replace, not push: the entry holding the token must not stay in the history either.
  useEffect(() => {
    if (!tokenInUrl) return;
    void navigate(
      {
        pathname: location.pathname,
        search: removeServiceToken(location.search),
        hash: location.hash,
      },
      { replace: true },
    );
  }, [tokenInUrl, navigate, location.pathname, location.search, location.hash]);

  if (token === null) {
    return <PrintMessage title={PRINT_REOPEN_TITLE} message={PRINT_REOPEN_MESSAGE} />;
  }
  if (print.isPending) return <FullScreenLoader label={PRINT_LOADING_LABEL} />;
  if (print.isError) {
    const status = print.error instanceof ServerError ? print.error.status : 0;
    // 401 (expired or invalid) and 403 will not change by retrying; the server says what to do.
    const retry = status === 0 || status >= 500 ? () => void print.refetch() : undefined;
    return <PrintMessage title={PRINT_ERROR_TITLE} message={print.error.message} onRetry={retry} />;
  }
  return <PrintedApplication data={print.data} />;
}

/**
 * The application as the server built it: the view model arrives finished (answers hidden,
 * formatted and masked once, on the server, as for the staff PDF); this only lays it out.
 */
export function PrintedApplication({
  data,
  component = 'main',
}: {
  data: ServicePrintResponse;
  /** `main` on its own page (/print); an `article` inside a page that has its `main` already. */
  component?: 'main' | 'article';
}) {
  const [generatedAt] = useState(() => new Date().toISOString());
  const cover: ApplicationCover = {
    applicantName: data.applicant.name,
    applicationId: data.applicant.application_id,
    email: data.applicant.email,
    submittedAt: data.applicant.submitted_at,
    generatedAt,
  };
  // The name in the title also names the file when staff "Save as PDF" from the print dialog.
  const title = data.applicant.name
    ? `Application | ${data.applicant.name} | Undergraduate Application`
    : PRINT_TITLE;
  return (
    <>
      <title>{title}</title>
      <PrintView view={data.view} cover={cover} component={component} />
    </>
  );
}

function PrintMessage({
  title,
  message,
  onRetry,
}: {
  title: string;
  message: string;
  onRetry?: (() => void) | undefined;
}) {
  return (
    <Container size="sm" py="xl" component="main">
      <title>{PRINT_TITLE}</title>
      <Stack gap="md" role="alert" data-testid="print-message">
        <Title order={1}>{title}</Title>
        <Text>{message}</Text>
        {onRetry && (
          <div>
            <Button onClick={onRetry}>Try again</Button>
          </div>
        )}
      </Stack>
    </Container>
  );
}
