import { startTransition, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { Button, Group, Title, VisuallyHidden } from '@mantine/core';
import {
  APPLICATION_DEFINITION,
  countRepeatBlocks,
  resolveText,
  type Page,
  type PageId,
  type RepeatGroup,
  type Section,
} from '@admissions/form';
import {
  useAnswersSelector,
  useApplicationActions,
  useClosedMessage,
  useIsLoggedIn,
  useLayoutSelector,
} from '../state/application-context';
import type { AnswersView } from '../state/answers-state';
import { isShallowEqual } from '../state/create-store';
import classes from './application-page.module.css';
import { getPartner } from '../../../shared/lib/partner';
import { createDeferredModule, useDeferredModule } from '../../../shared/lib/deferred-module';

// The sections' code (every input, the lookups, the upload widget, the popovers of the selects)
// arrives after the page's title and the frame above it have painted: with it, that first paint
// waited for ten more files on a first visit (Lighthouse's LCP on /about, BENCHMARKS.md).
const pageBody = createDeferredModule(() => import('./page-body'));

function findGroup(id: string): RepeatGroup | undefined {
  return APPLICATION_DEFINITION.repeatGroups.find((g) => g.id === id);
}

/**
 * Conditional questions and sections that appear are announced politely (WCAG 4.1.3): a new
 * section by its title, a new question inside a section already shown by its label.
 */
function useAnnouncedQuestions(sections: readonly Section[]) {
  const signature = useAnswersSelector((view) =>
    sections
      .flatMap((s) =>
        s.questions.filter((q) => view.visibleKeys.has(q.key)).map((q) => `${s.id}/${q.key}`),
      )
      .join(','),
  );
  // React's "information from previous renders" pattern: compare with the last signature.
  const [tracked, setTracked] = useState({ signature, message: '' });
  if (tracked.signature !== signature) {
    const message = describeAppeared(sections, tracked.signature, signature);
    setTracked({ signature, message: message || tracked.message });
  }
  return tracked.message;
}

function describeAppeared(sections: readonly Section[], before: string, after: string): string {
  const was = new Set(before ? before.split(',') : []);
  const now = new Set(after ? after.split(',') : []);
  const sectionShown = (set: Set<string>, id: string) =>
    [...set].some((entry) => entry.startsWith(`${id}/`));
  const parts: string[] = [];
  for (const section of sections) {
    if (!sectionShown(now, section.id)) continue;
    if (!sectionShown(was, section.id)) {
      parts.push(`${section.title} section`);
      continue;
    }
    for (const question of section.questions) {
      const entry = `${section.id}/${question.key}`;
      if (now.has(entry) && !was.has(entry)) parts.push(resolveText(question.label, getPartner()));
    }
  }
  return parts.length > 0 ? `New questions appeared: ${parts.join('; ')}.` : '';
}

/** Summary links `{page}#{questionKey}` land here: bring the question into view and focus it. */
function useFocusHash(heading: React.RefObject<HTMLHeadingElement | null>, ready: boolean) {
  const { hash, key } = useLocation();
  useEffect(() => {
    if (hash || key === 'default') return;
    // After moving between steps, start everyone at the page title: "Save and Continue" sits at
    // the bottom, and without this the next step opened at its own bottom (issue 17).
    window.scrollTo({ top: 0, left: 0 });
    heading.current?.focus({ preventScroll: true });
  }, [hash, key, heading]);
  useEffect(() => {
    // The question is in a section, which renders once the sections' code has arrived.
    if (!hash || !ready) return;
    const id = decodeURIComponent(hash.slice(1));
    const target = document.getElementById(id);
    if (!target) return;
    // A wrapper (the lookup widget) carries the id: focus the field inside it.
    const field = target.matches('input, select, textarea')
      ? target
      : (target.querySelector<HTMLElement>('input, select, textarea') ?? target);
    target.scrollIntoView({ block: 'center' });
    field.focus({ preventScroll: true });
  }, [hash, key, ready]);
}

/** The repeat groups a page's sections belong to. */
function listPageGroups(page: Page | undefined): RepeatGroup[] {
  const ids = new Set(page?.sections.flatMap((s) => (s.repeat ? [s.repeat.group] : [])));
  return [...ids].flatMap((id) => findGroup(id) ?? []);
}

/** How many blocks each of the page's repeat groups shows, in `groups` order. */
function countBlocks(
  groups: readonly RepeatGroup[],
  view: AnswersView,
  addAnother: Readonly<Record<string, number>>,
): number[] {
  const errorKeys = Object.keys(view.errors);
  return groups.map((group) =>
    countRepeatBlocks(group, APPLICATION_DEFINITION, view.answers, addAnother[group.id], errorKeys),
  );
}

/**
 * How many sections the first commit of a page holds: none. The page's title and what the frame
 * shows above it (step links, the welcome banner, the largest text of a first visit's screen)
 * paint first, after the lightest render the page has; the first section follows in the next
 * transition. With it in the first commit, that paint waited for its forty-odd fields (and a
 * 250-option country list) to render and lay out (issue #17, Lighthouse's LCP on /about).
 */
const FIRST_SECTIONS = 0;

/**
 * How many of a page's sections to render. A whole page (up to 170 fields) in one commit kept the
 * first paint waiting for all of it and then blocked the main thread for one long task; the
 * sections follow one per transition, each a short commit the browser can interleave with input.
 * A `#question` link needs its target at once: all then.
 */
function useRevealedSections(total: number, revealAll: boolean, ready: boolean): number {
  const [revealed, setRevealed] = useState(FIRST_SECTIONS);
  const done = revealAll || revealed >= total;
  useEffect(() => {
    if (done || !ready) return;
    startTransition(() => setRevealed((count) => count + 1));
  }, [done, ready, revealed]);
  if (!ready) return 0;
  return done ? total : revealed;
}

/** One step of the application, rendered from the definition. */
export function ApplicationPage({ pageId }: { pageId: PageId }) {
  const page = APPLICATION_DEFINITION.pages.find((p) => p.id === pageId);
  const announcement = useAnnouncedQuestions(page?.sections ?? []);
  const heading = useRef<HTMLHeadingElement>(null);
  const body = useDeferredModule(pageBody);
  useFocusHash(heading, body !== undefined);
  const isLoggedIn = useIsLoggedIn();
  const actions = useApplicationActions();
  // A closed round's application reads only (issue #29): the fieldset disables every input and
  // button of the page at once, the browser's own way, whatever the input's component.
  const readOnly = useClosedMessage() !== null;
  const groups = listPageGroups(page);
  const addAnother = useLayoutSelector((view) => view.addAnother);
  // The page re-renders when a block count changes, not on every answer.
  const blockCounts = useAnswersSelector(
    (view) => countBlocks(groups, view, addAnother),
    isShallowEqual,
  );
  const { hash } = useLocation();
  const sectionCount = page?.sections.length ?? 0;
  const revealed = useRevealedSections(sectionCount, hash !== '', body !== undefined);
  if (!page) return null;
  const countFor = (group: RepeatGroup) => blockCounts[groups.indexOf(group)] ?? 0;

  return (
    <div className={classes.page} data-revealing={revealed < sectionCount || undefined}>
      <Title order={1} className={classes.pageTitle} ref={heading} tabIndex={-1}>
        {page.title}
      </Title>
      <VisuallyHidden aria-live="polite" role="status">
        {announcement}
      </VisuallyHidden>
      <fieldset className={classes.fields} disabled={readOnly} data-testid="application-fields">
        {body &&
          page.sections.slice(0, revealed).map((section) => {
            const { SectionView } = body;
            const repeat = section.repeat;
            const group = repeat ? groups.find((g) => g.id === repeat.group) : undefined;
            if (!repeat || !group) return <SectionView key={section.id} section={section} />;
            const count = countFor(group);
            if (repeat.index > count) return null;
            const isLast = repeat.index === count;
            const canAdd = isLast && isLoggedIn && count < group.max;
            return (
              <div key={section.id}>
                <SectionView section={section} />
                {canAdd && (
                  <Group mb="lg">
                    <Button
                      variant="outline"
                      onClick={() => void actions.addBlock(group.id, count + 1)}
                    >
                      {group.buttonLabel}
                    </Button>
                  </Group>
                )}
              </div>
            );
          })}
        {/* Below the last section only once it is there: a button that moves down is a layout shift. */}
        {body && revealed === sectionCount && <body.PageActions pageId={pageId} />}
      </fieldset>
    </div>
  );
}
