import { useState } from 'react';
import { Tabs, Text } from '@mantine/core';
import { FileUploadInProgressDialog } from '../../../shared/ui/file-upload-in-progress-dialog';
import { isAnswered, type Question, type TabGroup } from '@admissions/form';
import { useApplication } from './application-provider';
import { QuestionField } from './question-field';

/** Document-or-essay tabs; anonymous visitors see only the default tab (SPEC §4). */
export function TabGroupField({ group, questions }: { group: TabGroup; questions: Question[] }) {
  const app = useApplication();
  const [blocked, setBlocked] = useState(false);
  const stored = app.tabs[group.id];
  // Without a stored choice, show the tab that already holds an answer (e.g. a prefilled essay).
  const answeredTab = group.tabs.find((t) => isAnswered(app.answers[t.questionKey]))?.id;
  const chosen = stored ?? answeredTab ?? group.defaultTab;
  const questionFor = (tabId: string) => questions.find((q) => q.tab?.tab === tabId);

  if (!app.snapshot.is_logged_in) {
    const question = questionFor(group.defaultTab);
    return question ? <QuestionField question={question} /> : null;
  }
  return (
    <div>
      <Text fw={600} mb="xs" id={`${group.id}-tabs-label`}>
        {group.label}
      </Text>
      <Tabs
        value={chosen}
        onChange={(value) => {
          if (!value || value === chosen) return;
          void app.chooseTab(group.id, value, chosen).then((result) => {
            if (result === 'blocked') setBlocked(true);
          });
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
        {group.tabs.map((tab) => {
          const question = questionFor(tab.id);
          return (
            <Tabs.Panel key={tab.id} value={tab.id} pt="md">
              {question && <QuestionField question={question} />}
            </Tabs.Panel>
          );
        })}
      </Tabs>
      <FileUploadInProgressDialog opened={blocked} onClose={() => setBlocked(false)} />
    </div>
  );
}
