import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { Link, useOutletContext, useParams } from 'react-router';
import type { StaffApplicationResponse, StaffMeResponse } from '@admissions/api-contract';
import { PrintedApplication } from '../../print';
import { useStaffApplication } from '../api/staff-api';
import { STAFF_PATHS } from '../lib/staff-paths';
import { StaffPageTitle } from './staff-layout';
import { ChecklistPanel } from './checklist-panel';

type DocumentStatus = StaffApplicationResponse['documents'][number]['status'];

const DOCUMENT_STATUS: Record<DocumentStatus, { label: string; color: string }> = {
  UNPROCESSED: { label: 'Waiting to convert', color: 'gray' },
  IN_PROGRESS: { label: 'Converting', color: 'amber' },
  COMPLETED: { label: 'Converted', color: 'brown' },
  FAILED: { label: 'Conversion failed', color: 'red' },
  NOT_ANSWERED: { label: 'No file', color: 'gray' },
};

/**
 * /staff/applications/:id: the application as the print view shows it (the server reads it for
 * this staff session and audits the read), its documents with their conversion status, its
 * checklist (issue #30), and the staff PDF.
 */
export function ApplicationPage() {
  const { id = '' } = useParams();
  const me = useOutletContext<StaffMeResponse>();
  const application = useStaffApplication(id);

  if (application.isPending) {
    return (
      <Group gap="sm" role="status">
        <Loader size="sm" aria-hidden />
        <Text>Loading the application</Text>
      </Group>
    );
  }
  if (application.isError) {
    return (
      <Stack gap="md">
        <StaffPageTitle title="Application">This application cannot be shown</StaffPageTitle>
        <Alert color="red" role="alert">
          {application.error.message}
        </Alert>
        <BackLink />
      </Stack>
    );
  }
  const { print, documents, pdf_url } = application.data;
  const name = print.applicant.name || print.applicant.email;
  return (
    <Stack gap="lg">
      <BackLink />
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <StaffPageTitle title={name}>Application of {name}</StaffPageTitle>
        {/* A plain link: the browser downloads the attachment with the staff session's cookie. */}
        <Button component="a" href={pdf_url} download>
          Download PDF
        </Button>
      </Group>
      <Paper withBorder p="md" radius="md" component="section" aria-labelledby="documents-heading">
        <Title order={2} size="h4" id="documents-heading" mb="sm">
          Documents
        </Title>
        {documents.length === 0 ? (
          <Text c="dimmed">No documents were uploaded.</Text>
        ) : (
          <Table.ScrollContainer minWidth={480}>
            <Table verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">File</Table.Th>
                  <Table.Th scope="col">Question</Table.Th>
                  <Table.Th scope="col">Conversion</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {documents.map((doc) => (
                  <Table.Tr key={doc.answer_key}>
                    <Table.Td>{doc.file_name}</Table.Td>
                    <Table.Td>{doc.answer_key}</Table.Td>
                    <Table.Td>
                      <Badge color={DOCUMENT_STATUS[doc.status].color} variant="light">
                        {DOCUMENT_STATUS[doc.status].label}
                      </Badge>
                      {doc.message && (
                        <Text size="sm" c="dimmed">
                          {doc.message}
                        </Text>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
      <ChecklistPanel id={id} role={me.role} />
      <Paper withBorder p="md" radius="md">
        <StaffPrintedApplication data={application.data} />
      </Paper>
    </Stack>
  );
}

function BackLink() {
  return (
    <Anchor component={Link} to={STAFF_PATHS.list}>
      ← Back to the applications
    </Anchor>
  );
}

/**
 * The staff print view: the same component as /print, the view model as the server built it; an
 * article named by the applicant, since the staff layout holds the page's one `main`.
 */
function StaffPrintedApplication({ data }: { data: StaffApplicationResponse }) {
  return <PrintedApplication data={data.print} component="article" />;
}
