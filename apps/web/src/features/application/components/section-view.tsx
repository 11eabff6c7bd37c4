import { memo } from 'react';
import { Stack, Text, Title } from '@mantine/core';
import {
  APPLICATION_DEFINITION,
  resolveText,
  type Question,
  type Section,
  type TabGroup,
} from '@admissions/form';
import { useAnswersSelector } from '../state/application-context';
import { QuestionField } from './question-field';
import { TabGroupField } from './tab-group-field';
import classes from './application-page.module.css';
import { getPartner } from '../../../shared/lib/partner';

type Item =
  | { kind: 'question'; question: Question }
  | { kind: 'tabs'; group: TabGroup; questions: Question[] };

/** Questions in order, a tab group's questions folded into one item where its first one stands. */
function groupItems(questions: readonly Question[]): Item[] {
  const items: Item[] = [];
  for (const question of questions) {
    const groupId = question.tab?.group;
    const group = groupId
      ? APPLICATION_DEFINITION.tabGroups.find((g) => g.id === groupId)
      : undefined;
    if (!group) {
      items.push({ kind: 'question', question });
      continue;
    }
    const existing = items.find((i) => i.kind === 'tabs' && i.group.id === group.id);
    if (existing?.kind === 'tabs') existing.questions.push(question);
    else items.push({ kind: 'tabs', group, questions: [question] });
  }
  return items;
}

// Memoised: while a page reveals its sections one by one (application-page.tsx), the sections
// already shown are not rendered again at each step; each subscribes to what it shows itself.
export const SectionView = memo(function SectionView({ section }: { section: Section }) {
  const all = groupItems(section.questions);
  // Which items show, as one string: the section re-renders only when that changes.
  const shown = useAnswersSelector((view) =>
    all
      .map((item) =>
        item.kind === 'question'
          ? view.visibleKeys.has(item.question.key)
          : item.questions.some((q) => view.visibleKeys.has(q.key)),
      )
      .map((visible) => (visible ? '1' : '0'))
      .join(''),
  );
  const items = all.filter((_, index) => shown[index] === '1');
  if (items.length === 0) return null;
  const headingId = `section-${section.id}`;
  const title = resolveText(section.title, getPartner());
  return (
    <section aria-labelledby={headingId} className={classes.section}>
      <Title order={2} id={headingId} className={classes.sectionTitle}>
        {title}
      </Title>
      {section.help && (
        <Text size="sm" c="dimmed" mb="sm">
          {resolveText(section.help, getPartner())}
        </Text>
      )}
      <Stack gap="md">
        {items.map((item) =>
          item.kind === 'question' ? (
            <QuestionField key={item.question.key} question={item.question} />
          ) : (
            <TabGroupField
              key={item.group.id}
              group={item.group}
              questions={item.questions}
              sectionTitle={title}
            />
          ),
        )}
      </Stack>
    </section>
  );
});
