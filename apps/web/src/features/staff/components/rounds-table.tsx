import { Alert, Stack, Table, Text, Title } from '@mantine/core';
import { formatRoundTime } from '@admissions/form';
import { useStaffRounds } from '../api/staff-api';

/** The admission rounds: dates in the institution's time zone and how many applications each holds. */
export function RoundsTable() {
  const rounds = useStaffRounds();
  if (rounds.isError) {
    return (
      <Alert color="red" role="alert">
        {rounds.error.message}
      </Alert>
    );
  }
  if (!rounds.data) return null;
  const { time_zone: timeZone } = rounds.data;
  return (
    <Stack gap="xs" component="section" aria-labelledby="admission-rounds">
      <Title order={2} size="h4" id="admission-rounds">
        Admission rounds
      </Title>
      {/* Nothing in this table takes focus, so on a narrow screen its scroller must, or a
          keyboard could not scroll to the columns past the edge. */}
      <Table.ScrollContainer
        minWidth={720}
        scrollAreaProps={{ viewportProps: { tabIndex: 0, 'aria-label': 'Admission rounds' } }}
      >
        <Table striped verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Code</Table.Th>
              <Table.Th scope="col">Round</Table.Th>
              <Table.Th scope="col">Entry term</Table.Th>
              <Table.Th scope="col">Opens</Table.Th>
              <Table.Th scope="col">Deadline</Table.Th>
              <Table.Th scope="col">Applications</Table.Th>
              <Table.Th scope="col">Submitted</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rounds.data.rounds.map((round) => (
              <Table.Tr key={round.code}>
                <Table.Td>{round.code}</Table.Td>
                <Table.Td>{round.name}</Table.Td>
                <Table.Td>{round.entry_term || '—'}</Table.Td>
                <Table.Td>{formatRoundTime(round.opens_at, timeZone)}</Table.Td>
                <Table.Td>
                  {formatRoundTime(round.deadline, timeZone)}
                  {round.closes_at !== round.deadline && (
                    <Text size="xs" c="dimmed">
                      taken until {formatRoundTime(round.closes_at, timeZone)}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{round.applications}</Table.Td>
                <Table.Td>{round.submitted}</Table.Td>
              </Table.Tr>
            ))}
            {rounds.data.rounds.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={7}>
                  <Text c="dimmed">No admission rounds yet.</Text>
                </Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
