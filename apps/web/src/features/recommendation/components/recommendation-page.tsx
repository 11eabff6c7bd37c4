// /recommend/:token (issue #30): the recommender's page. No account and no session: the link is
// the credential. Who asks, for which school, whether the applicant waived the right to read the
// letter (FERPA), two questions and the letter, uploaded (PDF or Word, up to 1 MB) or typed.
import { useId, useState, type FormEvent } from 'react';
import { Alert, Button, Group, Input, Loader, Stack, Text, TextInput, Title } from '@mantine/core';
import {
  CHECKLIST_MESSAGES,
  RECOMMENDATION_CAPACITIES,
  type RecommendationBody,
  type RecommendationPage as Page,
  type RecommenderType,
} from '@admissions/api-contract';
import {
  CHECKLIST_FILE_ACCEPT,
  CHECKLIST_FILE_RULES,
  checkChecklistFile,
  FileDropZone,
  formatChecklistTime,
  readChecklistFile,
  SelectField,
  TextareaField,
} from '../../checklist';
import {
  isRecommendationToken,
  useRecommendation,
  useSubmitRecommendation,
} from '../api/recommendation';
import classes from './recommendation.module.css';

export const YEARS_LABEL = 'How many years have you known the applicant?';
export const CAPACITY_LABEL = 'In what capacity?';
export const LINK_REFUSED_TITLE = 'This link cannot be used';

const ROLE: Record<RecommenderType, string> = {
  counselor: 'their school counselor',
  teacher: 'one of their teachers',
  other: 'a recommender',
};

/** What the recommender is told of the FERPA answer, in plain words. */
export function describeFerpaForRecommender(page: Page): string {
  return page.ferpa_waived
    ? `${page.applicant_name} has waived the right to read this letter. Your letter is confidential: ${page.applicant_name} will not see it.`
    : `${page.applicant_name} has not waived the right to read this letter. If ${page.applicant_name} enrolls at ${page.school_name}, they may ask to read it.`;
}

export function RecommendationPage({ token }: { token: string }) {
  const valid = isRecommendationToken(token);
  return valid ? (
    <LinkedPage token={token} />
  ) : (
    <Refused message={CHECKLIST_MESSAGES.linkInvalid} />
  );
}

function Refused({ message }: { message: string }) {
  return (
    <div className={classes.page}>
      <title>{`${LINK_REFUSED_TITLE} | Recommendation`}</title>
      <Title order={1} className={classes.title}>
        {LINK_REFUSED_TITLE}
      </Title>
      <Alert color="red" role="alert" data-testid="recommendation-refused">
        {message}
      </Alert>
    </div>
  );
}

function LinkedPage({ token }: { token: string }) {
  const page = useRecommendation(token);
  if (page.isPending) {
    return (
      <Group gap="sm" role="status">
        <Loader size="sm" aria-hidden />
        <Text>Loading the recommendation request</Text>
      </Group>
    );
  }
  if (page.isError) return <Refused message={page.error.message} />;
  const data = page.data;
  const expires = formatChecklistTime(data.expires_at);
  return (
    <div className={classes.page}>
      <title>{`Recommendation for ${data.applicant_name} | ${data.school_name}`}</title>
      <Title order={1} className={classes.title}>
        Recommendation for {data.applicant_name}
      </Title>
      <Text className={classes.text}>
        Dear {data.recommender_name}, {data.applicant_name} has named you as {ROLE[data.type]} and
        asks for your letter of recommendation for their application to {data.school_name}.
      </Text>
      <section className={classes.box} aria-labelledby="ferpa-heading">
        <Title order={2} size="h4" id="ferpa-heading" mb="xs">
          Can the applicant read your letter?
        </Title>
        <Text className={classes.text} data-testid="recommendation-ferpa">
          {describeFerpaForRecommender(data)}
        </Text>
      </section>
      {data.status === 'received' ? (
        <Alert color="brown" role="status" data-testid="recommendation-received">
          {data.message || CHECKLIST_MESSAGES.letterReceived}
        </Alert>
      ) : (
        <>
          {data.status === 'converting' ? (
            <Group gap="sm" role="status" data-testid="recommendation-converting" wrap="nowrap">
              <Loader size="sm" aria-hidden />
              <Text>{data.message || CHECKLIST_MESSAGES.letterConverting}</Text>
            </Group>
          ) : (
            <Text size="sm" className={classes.text}>
              This link works until {expires}. It is meant for you alone: please do not forward it.
            </Text>
          )}
          {/* Kept (hidden) while the file converts: if the conversion fails, the answers are
              still there and only the letter is chosen again. */}
          <div hidden={data.status === 'converting'}>
            <LetterForm token={token} page={data} />
          </div>
        </>
      )}
    </div>
  );
}

type Letter = 'file' | 'text';

interface Errors {
  years?: string;
  capacity?: string;
  letter?: string;
}

function LetterForm({ token, page }: { token: string; page: Page }) {
  const submit = useSubmitRecommendation(token);
  const choiceName = useId();
  const [years, setYears] = useState('');
  const [capacity, setCapacity] = useState('');
  const [letter, setLetter] = useState<Letter>('file');
  const [file, setFile] = useState<File | null>(null);
  const [text, setText] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  // A failed conversion: the file is chosen again (the answers stay).
  const [status, setStatus] = useState(page.status);
  if (page.status !== status) {
    setStatus(page.status);
    if (page.status === 'failed') setFile(null);
  }

  const chooseFile = (chosen: File) => {
    const refused = checkChecklistFile(chosen);
    setFile(refused ? null : chosen);
    setErrors((current) => ({ ...current, letter: refused ?? undefined }));
    submit.reset();
  };

  const send = async (event: FormEvent) => {
    event.preventDefault();
    const found: Errors = {};
    const known = Number(years);
    if (years.trim() === '' || !Number.isInteger(known) || known < 0 || known > 50) {
      found.years = 'Please enter a whole number of years from 0 to 50.';
    }
    if (!(RECOMMENDATION_CAPACITIES as readonly string[]).includes(capacity)) {
      found.capacity = 'Please choose the capacity in which you know the applicant.';
    }
    if (letter === 'file' ? !file : !text.trim()) found.letter = CHECKLIST_MESSAGES.letterMissing;
    if (letter === 'text' && text.length > page.text_limit) {
      found.letter = CHECKLIST_MESSAGES.letterTooLong;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const body: RecommendationBody = {
      known_years: known,
      capacity: capacity as RecommendationBody['capacity'],
    };
    try {
      if (letter === 'file' && file) body.letter_file = await readChecklistFile(file);
      else body.letter_text = text;
    } catch (problem) {
      setErrors({ letter: (problem as Error).message });
      return;
    }
    submit.mutate(body);
  };

  // The converter refused the last file: its message, and the form takes another.
  const failed = page.status === 'failed' ? page.message : undefined;
  return (
    <form noValidate onSubmit={(event) => void send(event)} aria-labelledby="letter-heading">
      <Stack gap="md" maw="40rem">
        <Title order={2} size="h4" id="letter-heading">
          Your recommendation
        </Title>
        {failed ? (
          <Alert color="red" role="alert" data-testid="recommendation-failed">
            {failed} Please upload the letter again.
          </Alert>
        ) : null}
        <TextInput
          label={YEARS_LABEL}
          type="number"
          inputMode="numeric"
          min={0}
          max={50}
          step={1}
          required
          maw="12rem"
          value={years}
          onChange={(event) => setYears(event.currentTarget.value)}
          error={errors.years}
        />
        <SelectField
          label={CAPACITY_LABEL}
          required
          value={capacity}
          placeholder="Choose one"
          onChange={setCapacity}
          data={RECOMMENDATION_CAPACITIES.map((value) => ({ value, label: value }))}
          error={errors.capacity}
        />
        <fieldset className={classes.choice}>
          <legend className={classes.legend}>Your letter</legend>
          <label className={classes.option}>
            <input
              type="radio"
              name={choiceName}
              value="file"
              checked={letter === 'file'}
              onChange={() => setLetter('file')}
            />
            Upload a PDF or Word file
          </label>
          <label className={classes.option}>
            <input
              type="radio"
              name={choiceName}
              value="text"
              checked={letter === 'text'}
              onChange={() => setLetter('text')}
            />
            Type the letter here
          </label>
        </fieldset>
        {letter === 'file' ? (
          <Stack gap={6}>
            <FileDropZone
              label="Letter file"
              rules={CHECKLIST_FILE_RULES}
              accept={CHECKLIST_FILE_ACCEPT}
              invalid={errors.letter !== undefined}
              onFile={chooseFile}
              data-testid="recommendation-drop-zone"
            />
            {file ? (
              <Text size="sm" className={classes.text} data-testid="recommendation-file">
                Chosen: {file.name}
              </Text>
            ) : null}
          </Stack>
        ) : (
          <TextareaField
            label="Letter"
            value={text}
            onChange={setText}
            maxLength={page.text_limit}
            rows={12}
          />
        )}
        {errors.letter ? (
          <Input.Error role="alert" data-testid="recommendation-letter-error">
            {errors.letter}
          </Input.Error>
        ) : null}
        {submit.isError ? (
          <Alert color="red" role="alert">
            {submit.error.message}
          </Alert>
        ) : null}
        <Group>
          <Button type="submit" loading={submit.isPending}>
            Submit recommendation
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
