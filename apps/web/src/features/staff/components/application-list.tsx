import { useEffect, useState } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  Pagination,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Link, useOutletContext, useSearchParams } from 'react-router';
import { WEB_STATUSES, type StaffMeResponse, type StaffSort } from '@admissions/api-contract';
import { useStaffApplications } from '../api/staff-api';
import {
  CHECKLIST_FILTER_LABELS,
  CHECKLIST_FILTERS,
  describeChecklistProgress,
  readListState,
  STAFF_PAGE_SIZE,
  STATUS_LABELS,
  toListQuery,
  writeListState,
  type ListState,
} from '../lib/list-search';
import { STAFF_PATHS } from '../lib/staff-paths';
import { StaffPageTitle } from './staff-layout';
import { StaffSelect } from './staff-select';
import { RoundSelect } from './round-select';
import { RoundsTable } from './rounds-table';

const SORT_LABELS: Record<StaffSort, string> = {
  submitted_desc: 'Submitted, newest first',
  submitted_asc: 'Submitted, oldest first',
  name_asc: 'Name, A to Z',
  name_desc: 'Name, Z to A',
  updated_desc: 'Last changed first',
};

const STATUS_COLORS = { started: 'gray', validating: 'amber', submitted: 'brown' } as const;

export function formatDate(iso: string | null): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });
}

/** /staff: counts per status, search, filters, sort and server-side pages; the rounds below. */
export function ApplicationList() {
  const me = useOutletContext<StaffMeResponse>();
  const [params, setParams] = useSearchParams();
  const state = readListState(params);
  const update = (change: Partial<ListState>) =>
    // Any new filter starts again at page 1.
    setParams(writeListState({ ...state, page: 1, ...change }), { replace: !('page' in change) });

  // The search box types freely; the list follows a moment after the last key.
  const [search, setSearch] = useState(state.q);
  const [debounced] = useDebouncedValue(search, 300);
  useEffect(() => {
    if (debounced !== state.q) update({ q: debounced });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new search term moves the list
  }, [debounced]);

  const list = useStaffApplications(toListQuery(state));
  const counts = list.data?.counts;
  const all = counts ? counts.started + counts.validating + counts.submitted : undefined;
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / STAFF_PAGE_SIZE)) : 1;
  const countLabel = (n: number | undefined) => (n === undefined ? '' : ` (${n})`);

  return (
    <Stack gap="md">
      <StaffPageTitle title="Applications">Applications</StaffPageTitle>
      <SegmentedControl
        aria-label="Status"
        data-testid="status-counts"
        value={state.status}
        onChange={(value) => update({ status: value as ListState['status'] })}
        data={[
          { value: '', label: `All${countLabel(all)}` },
          ...WEB_STATUSES.map((s) => ({
            value: s,
            label: `${STATUS_LABELS[s]}${countLabel(counts?.[s])}`,
          })),
        ]}
        fullWidth
        styles={{ root: { flexWrap: 'wrap' } }}
      />
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3, lg: 6 }} spacing="sm">
        <TextInput
          label="Search by name or e-mail"
          type="search"
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
        />
        <RoundSelect value={state.round} onChange={(round) => update({ round })} />
        <TextInput
          label="Submitted from"
          type="date"
          value={state.from}
          onChange={(event) => update({ from: event.currentTarget.value })}
        />
        <TextInput
          label="Submitted to"
          type="date"
          value={state.to}
          onChange={(event) => update({ to: event.currentTarget.value })}
        />
        <StaffSelect
          label="Checklist"
          value={state.checklist}
          onChange={(value) => update({ checklist: value as ListState['checklist'] })}
          data={(['', ...CHECKLIST_FILTERS] as const).map((value) => ({
            value,
            label: CHECKLIST_FILTER_LABELS[value],
          }))}
        />
        <StaffSelect
          label="Sort"
          value={state.sort}
          onChange={(value) => update({ sort: value as StaffSort })}
          data={Object.entries(SORT_LABELS).map(([value, label]) => ({ value, label }))}
        />
      </SimpleGrid>
      <Group justify="space-between">
        <Text size="sm" role="status" aria-live="polite">
          {list.data ? `${list.data.total} applications` : 'Loading…'}
          {list.isFetching && list.data && (
            <Loader size="xs" ml="xs" aria-label="Updating the list" component="span" />
          )}
        </Text>
        {me.role === 'exporter' && (
          <Button
            component={Link}
            to={{
              pathname: STAFF_PATHS.exports,
              // An export's selection has no checklist filter (StaffExportBody).
              search: writeListState({
                ...state,
                checklist: '',
                page: 1,
                sort: 'submitted_desc',
              }).toString(),
            }}
            variant="light"
            size="sm"
          >
            Export this selection
          </Button>
        )}
      </Group>
      {list.isError && (
        <Alert color="red" role="alert">
          {list.error.message}
        </Alert>
      )}
      <Table.ScrollContainer minWidth={800}>
        <Table striped highlightOnHover verticalSpacing="xs">
          <VisuallyHidden component="caption">
            Applications, page {state.page} of {pages}
          </VisuallyHidden>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Name</Table.Th>
              <Table.Th scope="col">E-mail</Table.Th>
              <Table.Th scope="col">Round</Table.Th>
              <Table.Th scope="col">Status</Table.Th>
              <Table.Th scope="col">Submitted</Table.Th>
              <Table.Th scope="col">Entry term</Table.Th>
              <Table.Th scope="col">Major</Table.Th>
              <Table.Th scope="col">Checklist</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data?.rows.map((row) => (
              <Table.Tr key={row.id}>
                <Table.Td>
                  <Anchor component={Link} to={STAFF_PATHS.application(row.id)}>
                    {row.name || '(no name yet)'}
                  </Anchor>
                </Table.Td>
                <Table.Td>{row.email}</Table.Td>
                <Table.Td>{row.round}</Table.Td>
                <Table.Td>
                  <Badge color={STATUS_COLORS[row.status]} variant="light">
                    {STATUS_LABELS[row.status]}
                  </Badge>
                </Table.Td>
                <Table.Td>{formatDate(row.submitted_at)}</Table.Td>
                <Table.Td>{row.entry_term || '—'}</Table.Td>
                <Table.Td>{row.major || '—'}</Table.Td>
                <Table.Td data-testid="checklist-progress">
                  {describeChecklistProgress(row.checklist)}
                </Table.Td>
              </Table.Tr>
            ))}
            {list.data?.rows.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={8}>
                  <Text c="dimmed">No application matches.</Text>
                </Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {pages > 1 && (
        <nav aria-label="Pages">
          <Pagination
            total={pages}
            value={Math.min(state.page, pages)}
            onChange={(page) => update({ page })}
            withEdges
            getItemProps={(page) => ({ 'aria-label': `Page ${page}` })}
            getControlProps={(control) => ({
              'aria-label': {
                first: 'First page',
                previous: 'Previous page',
                next: 'Next page',
                last: 'Last page',
              }[control],
            })}
          />
        </nav>
      )}
      <RoundsTable />
    </Stack>
  );
}
