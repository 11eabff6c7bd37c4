import { and, desc, eq, ne, sql, type SQL } from 'drizzle-orm';
import {
  APPLICATION_DEFINITION,
  compileDefinition,
  findQuestionEntry,
  REPEAT_GROUPS,
  PREFILL_REFUSED_ANSWER_KEYS,
  TAB_GROUPS,
  checkAnswerPatch,
  clearHiddenAnswers,
  describeAnswerProblem,
  isKnownAnswerKey,
  listTabAnswersToClear,
  validateAnswers,
  type PartnerConfig,
} from '@admissions/form';
import {
  MESSAGES,
  WEB_STATUSES,
  formatSubmitWhileConverting,
  type ApplicationsResponse,
  type ChooseApplicationBody,
  type WebStatus,
} from '@admissions/api-contract';
import type { Db, RootDb } from '../../platform/db/connect';
import { applications, temporaryAnswers } from './schema';
import { rounds } from '../rounds';
import type { ApplicationRow } from './application-store';
import { AppError } from '../../platform/lib/app-error';
import type { Clock } from '../../platform/lib/clock';
import { hashToken } from '../../platform/lib/crypto';
import type { MailMessage } from '../../platform/mail/mailer';
import { renderSubmissionConfirmation } from '../mail';
import { recordApplicationEvent, type QueueWebhookDeliveries } from '../webhooks';
import {
  createRoundClosedError,
  createRoundNotFoundError,
  createRoundNotOpenError,
  describeRound,
  isRoundClosed,
  isRoundOpen,
  listRoundPolicies,
  readRoundPolicy,
} from '../rounds';
import {
  contentChange,
  explainRefusedWrite,
  findApplication,
  jsonb,
  mergeAnswers,
  readAnswers,
  readProfileJson,
  splitSensitive,
  updateUnsubmitted,
  writeUnsubmitted,
  type ApplicantWrite,
} from './application-store';
import type { Applicant } from './current-application';

/**
 * What the application needs from the documents module, which depends on this one (it changes
 * applications only through this module's functions): handed in by boot/, so no import cycle.
 */
export interface ApplicationFiles {
  /** The first file question still converting, read inside submit's transaction `tx`. */
  findConverting(tx: Db, applicationId: string): Promise<string | undefined>;
  /** Before a tab switch: the file questions it clears; throws while one of them converts. */
  prepareTabSwitch(applicationId: string, tabId: string, chosenTab: string): Promise<string[]>;
  /** After the switch: removes the documents of those questions. */
  finishTabSwitch(applicationId: string, answerKeys: string[]): Promise<void>;
  /** The profile's document_answer object of the application `applicationId`, as one SQL expression. */
  profileDocumentsSql(applicationId: SQL): SQL;
}

export interface ApplicationDeps {
  db: RootDb;
  clock: Clock;
  encryptionKey: Buffer;
  partner: PartnerConfig;
  sendMail: (message: MailMessage) => Promise<void>;
  files: ApplicationFiles;
  /** Queues the webhook deliveries a committed submission recorded. */
  queueWebhooks: QueueWebhookDeliveries;
}

/**
 * Answers a new application copied from the applicant's last one does not carry: the sensitive
 * and disciplinary answers (the roles prefill refuses, from the definition) and the answers of
 * file questions, whose documents the applicant uploads again.
 */
function isCopiedAnswer(key: string): boolean {
  if (PREFILL_REFUSED_ANSWER_KEYS.includes(key)) return false;
  return (
    compileDefinition(APPLICATION_DEFINITION).byAnswerKey.get(key)?.entry.question.type !== 'file'
  );
}

export function createApplicationService(deps: ApplicationDeps) {
  const { db, clock, encryptionKey, partner, sendMail, files } = deps;
  const writeOf = (applicant: Applicant): ApplicantWrite => ({
    receivedAt: applicant.receivedAt,
    timeZone: partner.timeZone,
  });

  async function requireApplication(applicationId: string) {
    const row = await findApplication(db, applicationId);
    if (!row) throw new AppError('NO_APPLICATION', MESSAGES.missingInformation);
    return row;
  }

  /** GET /api/applications: the applicant's applications, every round, and the current one. */
  async function listApplications(userId: string): Promise<ApplicationsResponse> {
    const now = clock.now();
    const rows = await db
      .select({
        round: applications.roundCode,
        status: applications.staffStatus,
        submittedAt: applications.submittedAt,
      })
      .from(applications)
      .where(eq(applications.userId, userId))
      .orderBy(desc(applications.chosenAt));
    return {
      time_zone: partner.timeZone,
      server_time: now.toISOString(),
      current: rows[0]?.round ?? null,
      applications: rows.map((r) => ({
        round: r.round,
        status: r.status ?? 'started',
        submitted_at: r.submittedAt?.toISOString() ?? null,
      })),
      rounds: (await listRoundPolicies(db)).map((round) => describeRound(round, now)),
    };
  }

  return {
    listApplications,

    /**
     * PUT /api/application: makes the applicant's application in `round` the current one, starting
     * it if need be (only while the round is open at the request's receipt), copied from their
     * latest other application when asked. One INSERT … ON CONFLICT on the unique (applicant,
     * round) pair: concurrent requests for one new round make one application.
     */
    async chooseApplication(
      userId: string,
      receivedAt: Date,
      body: ChooseApplicationBody,
    ): Promise<ApplicationsResponse> {
      const round = await readRoundPolicy(db, body.round);
      if (!round) throw createRoundNotFoundError(body.round);
      const at = sql`${receivedAt.toISOString()}::timestamptz`;
      // Strictly after every other application's, so the chosen one is the latest even when two
      // choices share a clock reading.
      const chosenAt = sql`GREATEST(${at}, (SELECT max(o.chosen_at) + interval '1 millisecond'
        FROM ${applications} o WHERE o.user_id = ${userId}::uuid AND o.round_code <> ${round.code}))`;
      const chosen = await db
        .update(applications)
        .set({ chosenAt: chosenAt })
        .where(and(eq(applications.userId, userId), eq(applications.roundCode, round.code)))
        .returning({ id: applications.id });
      if (chosen.length > 0) return listApplications(userId);
      if (!isRoundOpen(round, receivedAt)) {
        throw isRoundClosed(round, receivedAt)
          ? createRoundClosedError(round, partner.timeZone)
          : createRoundNotOpenError(round, partner.timeZone);
      }
      let copied: Pick<ApplicationRow, 'answer' | 'addAnother' | 'tabs'> | undefined;
      if (body.copy_from_last) {
        const [last] = await db
          .select({
            answer: applications.answer,
            addAnother: applications.addAnother,
            tabs: applications.tabs,
          })
          .from(applications)
          .where(and(eq(applications.userId, userId), ne(applications.roundCode, round.code)))
          .orderBy(desc(applications.chosenAt))
          .limit(1);
        if (last) {
          copied = {
            answer: Object.fromEntries(
              Object.entries(last.answer).filter(([key]) => isCopiedAnswer(key)),
            ),
            // The counts and tabs that make the copied answers visible.
            addAnother: last.addAnother,
            tabs: last.tabs,
          };
        }
      }
      await db
        .insert(applications)
        .values({ userId, roundCode: round.code, chosenAt: chosenAt, ...copied })
        .onConflictDoUpdate({
          target: [applications.userId, applications.roundCode],
          set: { chosenAt: chosenAt },
        });
      return listApplications(userId);
    },

    /** The whole GET /api/profile body as JSON text (see readProfileJson). */
    async readProfileJson(applicant: Applicant): Promise<string> {
      const body = await readProfileJson(
        db,
        applicant.applicationId,
        encryptionKey,
        files.profileDocumentsSql,
      );
      if (body === null) throw new AppError('NO_APPLICATION', MESSAGES.missingInformation);
      return body;
    },

    /**
     * One atomic JSONB merge: concurrent saves of different keys never lose each other. The
     * hottest route: it finds the current application inside its one statement, and resolves it
     * (`resolve`, the request's resolver) only when that statement wrote nothing.
     */
    async saveAnswers(
      save: { userId: string; receivedAt: Date; resolve: () => Promise<Applicant> },
      patch: Record<string, string>,
    ): Promise<void> {
      const problems = checkAnswerPatch(patch, partner);
      if (problems.length > 0) {
        throw new AppError('INVALID_ANSWER', describeAnswerProblem(problems[0]!), {
          details: {
            errors: Object.fromEntries(problems.map((p) => [p.key, [describeAnswerProblem(p)]])),
          },
        });
      }
      if (Object.keys(patch).length === 0) return;
      const { plain, sealed } = splitSensitive(patch, encryptionKey);
      await mergeAnswers(
        db,
        save.userId,
        plain,
        sealed,
        clock.now(),
        { receivedAt: save.receivedAt, timeZone: partner.timeZone },
        async () => (await save.resolve()).applicationId,
      );
    },

    async saveLastPage(applicant: Applicant, lastPage: string): Promise<void> {
      await updateUnsubmitted(db, applicant.applicationId, { lastPage }, writeOf(applicant));
    },

    /**
     * Idempotent and forward-only: a status at or behind the current one changes nothing.
     * "submitted" only confirms a submission made by submit().
     */
    async advanceWebStatus(applicant: Applicant, status: WebStatus): Promise<void> {
      const row = await requireApplication(applicant.applicationId);
      if (row.submittedAt) {
        if (status === 'submitted') return;
        throw new AppError('ALREADY_SUBMITTED', MESSAGES.alreadySubmitted);
      }
      if (status === 'submitted') throw new AppError('SUBMIT_REQUIRED', MESSAGES.submitFirst);
      // Entries accumulate in WEB_STATUSES order; their count is the status (docs/behaviour.md).
      const rank = WEB_STATUSES.indexOf(status) + 1;
      const write = writeOf(applicant);
      const written = await writeUnsubmitted(
        db,
        applicant.applicationId,
        { webStatus: WEB_STATUSES.slice(0, rank) as string[] },
        sql`cardinality(${applications.webStatus}) < ${rank}`,
        write,
      );
      if (written) return;
      // Nothing written: already that far (fine), or submitted or closed meanwhile (refused).
      const refusal = await explainRefusedWrite(db, applicant.applicationId, write);
      if (refusal) throw refusal;
    },

    async saveValidations(applicant: Applicant, errors: Record<string, string[]>): Promise<void> {
      const unknown = Object.keys(errors).find((key) => !isKnownAnswerKey(key));
      if (unknown) {
        throw new AppError('INVALID_ANSWER', `"${unknown}" is not a question of this application.`);
      }
      await updateUnsubmitted(
        db,
        applicant.applicationId,
        { validations: errors },
        writeOf(applicant),
      );
    },

    async readAddAnother(applicant: Applicant): Promise<Record<string, number>> {
      return (await requireApplication(applicant.applicationId)).addAnother;
    },

    async saveAddAnother(applicant: Applicant, buttonId: string, count: number): Promise<void> {
      const group = REPEAT_GROUPS.find((g) => g.id === buttonId);
      if (!group)
        throw new AppError('UNKNOWN_BUTTON', `"${buttonId}" is not an add-another button.`);
      if (count > group.max) {
        throw new AppError('TOO_MANY', `You can add at most ${group.max} of these.`);
      }
      // The count is content: the print view and the PDF show every block.
      await updateUnsubmitted(
        db,
        applicant.applicationId,
        contentChange(
          { addAnother: sql`${applications.addAnother} || ${jsonb({ [buttonId]: count })}` },
          clock.now(),
        ),
        writeOf(applicant),
      );
    },

    async readTabs(applicant: Applicant): Promise<Record<string, string>> {
      return (await requireApplication(applicant.applicationId)).tabs;
    },

    /**
     * Records the chosen tab and clears the answers of the tab left, in one statement; refused
     * while a file of the tab left converts, whose documents go after the switch (docs/behaviour.md).
     */
    async chooseTab(applicant: Applicant, tabId: string, chosenTab: string): Promise<void> {
      const group = TAB_GROUPS.find((g) => g.id === tabId);
      if (!group) throw new AppError('UNKNOWN_TAB', `"${tabId}" is not a tab group.`);
      if (!group.tabs.some((t) => t.id === chosenTab)) {
        throw new AppError('UNKNOWN_TAB', `"${chosenTab}" is not a tab of "${tabId}".`);
      }
      const cleared = Object.fromEntries(
        listTabAnswersToClear(APPLICATION_DEFINITION, tabId, chosenTab).map((k) => [k, '']),
      );
      const { applicationId } = applicant;
      const fileKeys = await files.prepareTabSwitch(applicationId, tabId, chosenTab);
      await updateUnsubmitted(
        db,
        applicationId,
        contentChange(
          {
            tabs: sql`${applications.tabs} || ${jsonb({ [tabId]: chosenTab })}`,
            answer: sql`${applications.answer} || ${jsonb(cleared)}`,
          },
          clock.now(),
        ),
        writeOf(applicant),
      );
      await files.finishTabSwitch(applicationId, fileKeys);
    },

    /**
     * Validates with the shared engine, clears hidden answers and freezes the application. The
     * row lock makes concurrent submits queue; all but the first find it submitted and return.
     * The deadline is judged by the request's receipt time, read under the lock with the round's
     * current deadline, and that time is the submission's: a submit received before the round
     * closed succeeds however long it waited.
     */
    async submit(applicant: Applicant): Promise<void> {
      const { applicationId } = applicant;
      const now = applicant.receivedAt;
      // The webhook deliveries of the submission this call made; null when it was made before.
      const submitted = await db.transaction(async (tx) => {
        const [row] = await tx
          .select({ application: applications, round: rounds })
          .from(applications)
          .innerJoin(rounds, eq(rounds.code, applications.roundCode))
          .where(eq(applications.id, applicationId))
          .for('update', { of: applications });
        if (!row) throw new AppError('NO_APPLICATION', MESSAGES.missingInformation);
        const { application } = row;
        if (application.submittedAt) return null;
        if (isRoundClosed(row.round, now))
          throw createRoundClosedError(row.round, partner.timeZone);
        // A file still converting would change a submitted application: refuse, naming it. The
        // conversion side takes this row lock too before it starts or stores a result.
        const converting = await files.findConverting(tx, applicationId);
        if (converting) {
          const label =
            findQuestionEntry(APPLICATION_DEFINITION, converting)?.question.label ?? converting;
          throw new AppError('CONVERSION_PENDING', formatSubmitWhileConverting(label));
        }
        const answers = readAnswers(application, encryptionKey);
        const context = { tabs: application.tabs };
        const errors = validateAnswers(APPLICATION_DEFINITION, answers, { now, partner, context });
        if (Object.keys(errors).length > 0) {
          throw new AppError('MISSING_INFORMATION', MESSAGES.missingInformation, {
            details: { errors },
          });
        }
        const { plain, sealed } = splitSensitive(
          clearHiddenAnswers(APPLICATION_DEFINITION, answers, context),
          encryptionKey,
        );
        await writeUnsubmitted(
          tx,
          applicationId,
          contentChange(
            {
              answer: plain,
              sensitive: sealed,
              submittedAt: now,
              webStatus: [...WEB_STATUSES],
              validations: {},
            },
            clock.now(),
          ),
        );
        // In this transaction: the event exists if and only if this call made the submission.
        return recordApplicationEvent(tx, {
          type: 'application.submitted',
          applicationId,
          at: now,
        });
      });
      if (submitted) {
        await sendMail(renderSubmissionConfirmation(applicant.email, partner));
        await deps.queueWebhooks(submitted);
      }
    },

    /** A prefilled answer set for an anonymous visitor; never what a prefill link may not carry. */
    async readTemporaryAnswers(token: string): Promise<Record<string, string>> {
      const [row] = await db
        .select()
        .from(temporaryAnswers)
        .where(
          sql`${temporaryAnswers.tokenHash} = ${hashToken(token)}
              AND ${temporaryAnswers.expiresAt} > ${clock.now().toISOString()}::timestamptz`,
        )
        .limit(1);
      if (!row) throw new AppError('TOKEN_INVALID', MESSAGES.temporaryAnswersGone);
      const answer = { ...row.answer };
      for (const key of PREFILL_REFUSED_ANSWER_KEYS) delete answer[key];
      return answer;
    },
  };
}

export type ApplicationService = ReturnType<typeof createApplicationService>;
