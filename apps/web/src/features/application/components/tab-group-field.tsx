import { useState } from 'react';
import { Button, Group, Tabs, Text, VisuallyHidden } from '@mantine/core';
import { AppModal } from '../../../shared/ui/app-modal';
import { FileUploadInProgressDialog } from '../../../shared/ui/file-upload-in-progress-dialog';
import { isAnswered, type Question, type TabGroup } from '@admissions/form';
import {
  useAnswersReader,
  useAnswersSelector,
  useApplicationActions,
  useIsLoggedIn,
  useLayoutSelector,
} from '../state/application-context';
import { QuestionField } from './question-field';

export const SWITCH_TAB_TITLE = 'Switch tabs?';

/** What a tab's answer is called when switching away deletes it. */
export function describeTabWork(question: Question | undefined): string {
  return question?.type === 'file' ? 'uploaded file' : 'typed response';
}

export function formatSwitchQuestion(noun: string): string {
  return `Switching will delete your ${noun}. Continue?`;
}

export function formatSwitchDone(noun: string): string {
  return `Your ${noun} was deleted.`;
}

interface PendingSwitch {
  to: string;
  from: string;
  noun: string;
}

/** Document-or-essay tabs; anonymous visitors see only the default tab. */
export function TabGroupField({
  group,
  questions,
  sectionTitle,
}: {
  group: TabGroup;
  questions: Question[];
  /** The section's heading; a group labelled the same still names its tabs, but unseen. */
  sectionTitle?: string;
}) {
  const actions = useApplicationActions();
  const isLoggedIn = useIsLoggedIn();
  const readAnswers = useAnswersReader();
  const [blocked, setBlocked] = useState(false);
  const [pending, setPending] = useState<PendingSwitch | null>(null);
  const [removed, setRemoved] = useState<string | null>(null);
  const [switching, setSwitching] = useState(false);
  const stored = useLayoutSelector((view) => view.tabs[group.id]);
  // Without a stored choice, show the tab that already holds an answer (e.g. a prefilled essay).
  const answeredTab = useAnswersSelector(
    (view) => group.tabs.find((t) => isAnswered(view.answers[t.questionKey]))?.id,
  );
  const chosen = stored ?? answeredTab ?? group.defaultTab;
  const questionFor = (tabId: string) => questions.find((q) => q.tab?.tab === tabId);

  if (!isLoggedIn) {
    const question = questionFor(group.defaultTab);
    return question ? <QuestionField question={question} /> : null;
  }

  const switchTab = (to: string, from: string, noun: string | null) => {
    setSwitching(true);
    void actions.chooseTab(group.id, to, from).then((result) => {
      setSwitching(false);
      setPending(null);
      if (result === 'blocked') setBlocked(true);
      else if (result === 'done') setRemoved(noun);
    });
  };

  return (
    <div>
      {group.label === sectionTitle ? (
        <VisuallyHidden id={`${group.id}-tabs-label`}>{group.label}</VisuallyHidden>
      ) : (
        <Text fw={600} mb="xs" id={`${group.id}-tabs-label`}>
          {group.label}
        </Text>
      )}
      <Tabs
        value={chosen}
        onChange={(value) => {
          if (!value || value === chosen) return;
          const leaving = group.tabs.find((t) => t.id === chosen);
          // Switching deletes the left tab's answer (a file or a typed essay): ask first when
          // there is work to lose. A file still converting is refused by chooseTab instead.
          if (leaving && isAnswered(readAnswers()[leaving.questionKey])) {
            setPending({ to: value, from: chosen, noun: describeTabWork(questionFor(chosen)) });
            return;
          }
          setRemoved(null);
          switchTab(value, chosen, null);
        }}
        keepMounted={false}
      >
        <Tabs.List aria-labelledby={`${group.id}-tabs-label`}>
          {group.tabs.map((tab) => (
            <Tabs.Tab key={tab.id} value={tab.id}>
              {tab.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {removed ? (
          <Text size="sm" mt="xs" role="status" data-testid="tab-switch-notice">
            {formatSwitchDone(removed)}
          </Text>
        ) : null}
        {group.tabs.map((tab) => {
          const question = questionFor(tab.id);
          return (
            <Tabs.Panel key={tab.id} value={tab.id} pt="md">
              {question && <QuestionField question={question} />}
            </Tabs.Panel>
          );
        })}
      </Tabs>
      <AppModal opened={pending !== null} onClose={() => setPending(null)} title={SWITCH_TAB_TITLE}>
        <Text>{pending ? formatSwitchQuestion(pending.noun) : ''}</Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => setPending(null)}>
            Cancel
          </Button>
          <Button
            color="red"
            loading={switching}
            onClick={() => pending && switchTab(pending.to, pending.from, pending.noun)}
          >
            Continue
          </Button>
        </Group>
      </AppModal>
      <FileUploadInProgressDialog opened={blocked} onClose={() => setBlocked(false)} />
    </div>
  );
}
