import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { Button, Group, Title, VisuallyHidden } from '@mantine/core';
import {
  APPLICATION_DEFINITION,
  countRepeatBlocks,
  type PageId,
  type RepeatGroup,
  type Section,
} from '@admissions/form';
import { useApplication } from './application-provider';
import { PageActions } from './page-actions';
import { SectionView } from './section-view';
import classes from './application-page.module.css';

function findGroup(id: string): RepeatGroup | undefined {
  return APPLICATION_DEFINITION.repeatGroups.find((g) => g.id === id);
}

/** Section ids on screen: conditional sections that appear are announced. */
function useAnnouncedSections(sections: readonly Section[], visibleKeys: ReadonlySet<string>) {
  const shown = sections.filter((s) => s.questions.some((q) => visibleKeys.has(q.key)));
  const ids = shown.map((s) => s.id).join(',');
  const previous = useRef<Set<string> | null>(null);
  const [message, setMessage] = useState('');
  useEffect(() => {
    const now = new Set(ids ? ids.split(',') : []);
    if (previous.current) {
      const appeared = sections.filter((s) => now.has(s.id) && !previous.current?.has(s.id));
      if (appeared.length > 0) {
        setMessage(`New questions appeared: ${appeared.map((s) => s.title).join(', ')}.`);
      }
    }
    previous.current = now;
  }, [ids, sections]);
  return message;
}

/** Summary links `{page}#{questionKey}` land here: bring the question into view and focus it. */
function useFocusHash() {
  const { hash, key } = useLocation();
  useEffect(() => {
    if (!hash) return;
    const id = decodeURIComponent(hash.slice(1));
    const target = document.getElementById(id);
    if (!target) return;
    target.scrollIntoView({ block: 'center' });
    target.focus({ preventScroll: true });
  }, [hash, key]);
}

/** One step of the application, rendered from the definition. */
export function ApplicationPage({ pageId }: { pageId: PageId }) {
  const app = useApplication();
  const page = APPLICATION_DEFINITION.pages.find((p) => p.id === pageId);
  const announcement = useAnnouncedSections(page?.sections ?? [], app.visibleKeys);
  useFocusHash();
  if (!page) return null;

  const errorKeys = Object.keys(app.errors);
  const counts = new Map<string, number>();
  const countFor = (group: RepeatGroup) => {
    const known = counts.get(group.id);
    if (known !== undefined) return known;
    const count = countRepeatBlocks(
      group,
      APPLICATION_DEFINITION,
      app.answers,
      app.addAnother[group.id],
      errorKeys,
    );
    counts.set(group.id, count);
    return count;
  };

  return (
    <div className={classes.page}>
      <Title order={1} className={classes.pageTitle}>
        {page.title}
      </Title>
      <VisuallyHidden aria-live="polite" role="status">
        {announcement}
      </VisuallyHidden>
      {page.sections.map((section) => {
        const repeat = section.repeat;
        const group = repeat ? findGroup(repeat.group) : undefined;
        if (!repeat || !group) return <SectionView key={section.id} section={section} />;
        const count = countFor(group);
        if (repeat.index > count) return null;
        const isLast = repeat.index === count;
        const canAdd = isLast && app.snapshot.is_logged_in && count < group.max;
        return (
          <div key={section.id}>
            <SectionView section={section} />
            {canAdd && (
              <Group mb="lg">
                <Button variant="outline" onClick={() => void app.addBlock(group.id, count + 1)}>
                  {group.buttonLabel}
                </Button>
              </Group>
            )}
          </div>
        );
      })}
      <PageActions pageId={pageId} />
    </div>
  );
}
