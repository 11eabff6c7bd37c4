import { useRef, useState, type FormEvent } from 'react';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useSearchParams } from 'react-router';
import {
  isDataExportFormat,
  STAFF_EXPORT_DEFAULT_STATUS,
  STAFF_EXPORT_RETENTION_DAYS,
  checkExportReason,
  WEB_STATUSES,
  type StaffExportFormat,
  type StaffExportResponse,
  type StaffExportStatus,
} from '@admissions/api-contract';
import { TextareaField } from '../../checklist';
import { useStaffExports, useStartExport } from '../api/staff-api';
import {
  describeSelection,
  EVERY_STATUS,
  readListState,
  STATUS_LABELS,
  toExportFilters,
  type ListFilters,
} from '../lib/list-search';
import { formatStaffTime } from '../lib/format-staff-time';
import { ExporterPage } from './staff-layout';
import { StaffSelect } from './staff-select';
import { RoundSelect } from './round-select';

// What each kind of export is called: in the form's choice, in the list, on its download button.
const EXPORT_FORMATS: Record<StaffExportFormat, { option: string; list: string; file: string }> = {
  zip: {
    option: 'A zip: one PDF per application, index.csv, index.json',
    list: 'Zip',
    file: 'zip',
  },
  combined: { option: 'One combined PDF of every application', list: 'Combined PDF', file: 'PDF' },
  csv: { option: 'Data file (CSV): one row per application', list: 'Data (CSV)', file: 'CSV' },
  json: { option: 'Data file (JSON)', list: 'Data (JSON)', file: 'JSON' },
  ndjson: {
    option: 'Data file (NDJSON): one record a line',
    list: 'Data (NDJSON)',
    file: 'NDJSON',
  },
};

/** The server's limit on the reason (StaffExportBody's `reason`). */
const REASON_MAX_LENGTH = 500;

const EXPORT_STATUS: Record<StaffExportResponse['status'], { label: string; color: string }> = {
  running: { label: 'Running', color: 'amber' },
  completed: { label: 'Ready', color: 'brown' },
  failed: { label: 'Failed', color: 'red' },
  expired: { label: 'Deleted', color: 'gray' },
};

/**
 * /staff/exports (exporters): the selection (the list's filters, carried over from the list),
 * zip, combined PDF or a data file (with the SSN and A-Number when asked for, with a reason),
 * start, progress, download. Readers are told their role does not allow it; the server refuses
 * them anyway.
 */
export function ExportsPage() {
  return (
    <ExporterPage title="Exports">
      <ExportForm />
      <ExportList />
    </ExporterPage>
  );
}

function ExportForm() {
  const [params] = useSearchParams();
  const [filters, setFilters] = useState<ListFilters>(() => readListState(params));
  // The list's status when it had one; otherwise the submitted applications, not every status
  // (a campus system takes in submitted ones; "Every status" is a choice, not the default).
  const [status, setStatus] = useState<StaffExportStatus>(
    () => filters.status || STAFF_EXPORT_DEFAULT_STATUS,
  );
  const [format, setFormat] = useState<StaffExportFormat>('zip');
  const [force, setForce] = useState(false);
  const [includeSensitive, setIncludeSensitive] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const reasonBox = useRef<HTMLDivElement>(null);
  const start = useStartExport();
  const set = (change: Partial<ListFilters>) => setFilters((old) => ({ ...old, ...change }));
  // The server decrypts the identifiers into data files only, and refuses the flag otherwise.
  const sensitive = isDataExportFormat(format) && includeSensitive;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The server's own check (the contract's), so the page says the same words before asking.
    const checked = sensitive ? checkExportReason(reason) : null;
    const refusal = checked && !checked.ok ? checked.message : null;
    setReasonError(refusal);
    if (refusal) {
      reasonBox.current?.querySelector('textarea')?.focus();
      return;
    }
    start.mutate({
      filters: { ...toExportFilters(filters), status },
      format,
      force,
      ...(checked?.ok ? { include_sensitive: true, reason: checked.reason } : {}),
    });
  };
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="new-export">
      {/* The reason's refusal is the server's words, not the browser's "fill in this field". */}
      <form noValidate onSubmit={submit}>
        <Stack gap="md">
          <Title order={2} size="h4" id="new-export">
            New export
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 5 }} spacing="sm">
            <StaffSelect
              label="Status"
              value={status}
              onChange={(value) => setStatus(value as StaffExportStatus)}
              data={[
                ...WEB_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] })),
                { value: 'all', label: EVERY_STATUS },
              ]}
            />
            <RoundSelect value={filters.round} onChange={(round) => set({ round })} />
            <TextInput
              label="Name or e-mail contains"
              value={filters.q}
              onChange={(event) => set({ q: event.currentTarget.value })}
            />
            <TextInput
              label="Submitted from"
              type="date"
              value={filters.from}
              onChange={(event) => set({ from: event.currentTarget.value })}
            />
            <TextInput
              label="Submitted to"
              type="date"
              value={filters.to}
              onChange={(event) => set({ to: event.currentTarget.value })}
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <StaffSelect
              label="What to download"
              value={format}
              onChange={(value) =>
                setFormat(value && value in EXPORT_FORMATS ? (value as StaffExportFormat) : 'zip')
              }
              data={Object.entries(EXPORT_FORMATS).map(([value, { option }]) => ({
                value,
                label: option,
              }))}
            />
            <StaffSelect
              label="Which applications to render"
              value={force ? 'all' : 'changed'}
              onChange={(value) => setForce(value === 'all')}
              data={[
                { value: 'changed', label: 'Only what changed since my last export' },
                { value: 'all', label: 'Everything again' },
              ]}
            />
          </SimpleGrid>
          {isDataExportFormat(format) && (
            <Stack gap="sm">
              <Checkbox
                label="Include Social Security and alien registration numbers"
                description="Decrypted into their columns; each application in the file is recorded in the audit log with your reason."
                checked={includeSensitive}
                onChange={(event) => {
                  setIncludeSensitive(event.currentTarget.checked);
                  setReasonError(null);
                }}
              />
              {includeSensitive && (
                <div ref={reasonBox}>
                  <TextareaField
                    label="Reason (kept in the audit log)"
                    value={reason}
                    onChange={(value) => {
                      setReason(value);
                      setReasonError(null);
                    }}
                    maxLength={REASON_MAX_LENGTH}
                    rows={3}
                    required
                    error={reasonError ?? undefined}
                  />
                </div>
              )}
            </Stack>
          )}
          {start.error && (
            <Alert color="red" role="alert">
              {start.error.message}
            </Alert>
          )}
          <Group>
            <Button type="submit" loading={start.isPending}>
              Start export
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

function ExportList() {
  const exports = useStaffExports();
  return (
    <Stack gap="sm" component="section" aria-labelledby="your-exports">
      <Title order={2} size="h4" id="your-exports">
        Your exports
      </Title>
      <Text size="sm" c="dimmed">
        Files are deleted {STAFF_EXPORT_RETENTION_DAYS} days after they are ready.
      </Text>
      {exports.isError && (
        <Alert color="red" role="alert">
          {exports.error.message}
        </Alert>
      )}
      {exports.data?.exports.length === 0 && <Text>No exports yet.</Text>}
      {exports.data && exports.data.exports.length > 0 && (
        <Table.ScrollContainer minWidth={720}>
          <Table verticalSpacing="sm" data-testid="exports">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Started</Table.Th>
                <Table.Th scope="col">Selection</Table.Th>
                <Table.Th scope="col">Status</Table.Th>
                <Table.Th scope="col">Progress</Table.Th>
                <Table.Th scope="col">Download</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {exports.data.exports.map((row) => (
                <ExportRow key={row.id} row={row} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

function ExportRow({ row }: { row: StaffExportResponse }) {
  const percent = row.selected === 0 ? 100 : Math.round((row.done / row.selected) * 100);
  const status = EXPORT_STATUS[row.status];
  const progressLabel = `${row.done} of ${row.selected} applications`;
  return (
    <Table.Tr data-export-id={row.id} data-status={row.status}>
      <Table.Td>
        <time dateTime={row.created_at}>{formatStaffTime(row.created_at)}</time>
      </Table.Td>
      <Table.Td>
        {describeSelection(row.filters)}
        <Text size="xs" c="dimmed">
          {EXPORT_FORMATS[row.format].list}
        </Text>
        {row.include_sensitive && (
          <Badge color="red" variant="light" size="sm" data-testid="export-sensitive">
            With SSN and A-Number
          </Badge>
        )}
      </Table.Td>
      <Table.Td>
        <Badge color={status.color} variant="light">
          {status.label}
        </Badge>
        {row.message && (
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'pre-line' }}>
            {row.message}
          </Text>
        )}
      </Table.Td>
      <Table.Td miw={160}>
        <Progress value={percent} aria-label={progressLabel} size="md" />
        <Text size="xs">
          {progressLabel}
          {row.status === 'completed' &&
            ` (${row.rendered} rendered, ${row.unchanged} unchanged, ${row.failed} failed)`}
        </Text>
      </Table.Td>
      <Table.Td>
        {row.download_url ? (
          <Button component="a" href={row.download_url} download size="xs" variant="light">
            Download {EXPORT_FORMATS[row.format].file}
          </Button>
        ) : (
          <Text size="sm" c="dimmed">
            —
          </Text>
        )}
      </Table.Td>
    </Table.Tr>
  );
}
