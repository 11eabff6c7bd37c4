import { useEffect, type MouseEvent } from 'react';
import { Button, Loader, Stack, Text } from '@mantine/core';
import { MESSAGES } from '@admissions/api-contract';
import { showErrorToast } from '../../../shared/ui/notify';
import { useApplicationPdf } from '../api/get-application-pdf';
import classes from './pdf-download.module.css';

export const PDF_DOWNLOAD_LABEL = 'Download a PDF copy of your application';
export const PDF_PREPARING_TEXT = 'Preparing the PDF copy of your application…';
/** docs/errors.md: the toast's label, verbatim. */
export const PDF_ERROR_TITLE = 'Error downloading PDF copy of your application.';
const PDF_ERROR_TOAST_ID = 'application-pdf-error';

/**
 * How long a download link from the server is used as is. The link is short-lived; an older one
 * is fetched again on click rather than handing the browser a link that may have expired.
 */
export const PDF_LINK_FRESH_MS = 60_000;

/**
 * The applicant's own application PDF (docs/behaviour.md, docs/api.md): made by a job on the server, polled until
 * ready, then a plain link that downloads it. A failure (FAILED or the request failing) is the
 * docs/errors.md toast; pressing the button again asks again.
 */
export function PdfDownload() {
  const pdf = useApplicationPdf();

  useEffect(() => {
    if (!pdf.isError) return;
    // A server that words the failure as the title itself leaves the toast nothing to add.
    const message = pdf.error.message === PDF_ERROR_TITLE ? MESSAGES.unexpected : pdf.error.message;
    showErrorToast(PDF_ERROR_TITLE, message, { id: PDF_ERROR_TOAST_ID });
  }, [pdf.isError, pdf.error, pdf.errorUpdatedAt]);

  const ready = pdf.data?.status === 'COMPLETED' && pdf.data.url !== '' && !pdf.isError;
  const waiting = !ready && (pdf.isFetching || !pdf.isError);

  if (ready && pdf.data) {
    const { url } = pdf.data;
    const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
      if (Date.now() - pdf.dataUpdatedAt < PDF_LINK_FRESH_MS) return;
      // Ask for a fresh link first, then download it.
      event.preventDefault();
      void pdf.refetch().then((result) => {
        if (result.data?.status === 'COMPLETED' && result.data.url) startDownload(result.data.url);
      });
    };
    return (
      <Button
        component="a"
        href={url}
        download
        onClick={onClick}
        classNames={classes}
        data-testid="pdf-download"
      >
        {PDF_DOWNLOAD_LABEL}
      </Button>
    );
  }
  if (waiting) {
    return (
      <Stack gap="xs" align="flex-start" data-testid="pdf-download">
        <Button
          disabled
          aria-disabled="true"
          leftSection={<Loader size="xs" aria-hidden />}
          classNames={classes}
        >
          {PDF_DOWNLOAD_LABEL}
        </Button>
        <Text size="sm" role="status">
          {PDF_PREPARING_TEXT}
        </Text>
      </Stack>
    );
  }
  return (
    <Button onClick={() => void pdf.refetch()} classNames={classes} data-testid="pdf-download">
      {PDF_DOWNLOAD_LABEL}
    </Button>
  );
}

function startDownload(url: string): void {
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = '';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
}
