import { eq, sql, type SQL } from 'drizzle-orm';
import {
  APPLICATION_DEFINITION,
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
  type WebStatus,
} from '@admissions/api-contract';
import type { Db, RootDb } from '../../platform/db/connect';
import { applications, temporaryAnswers } from './schema';
import { AppError } from '../../platform/lib/app-error';
import type { Clock } from '../../platform/lib/clock';
import { hashToken } from '../../platform/lib/crypto';
import type { MailMessage } from '../../platform/mail/mailer';
import { renderSubmissionConfirmation } from '../mail';
import {
  contentChange,
  findApplication,
  jsonb,
  mergeAnswers,
  openApplication,
  readAnswers,
  readProfileJson,
  splitSensitive,
  updateUnsubmitted,
  writeUnsubmitted,
} from './application-store';

/**
 * What the application needs from the documents module, which depends on this one (it changes
 * applications only through this module's functions): handed in by boot/, so no import cycle.
 */
export interface ApplicationFiles {
  /** The first file question still converting, read inside submit's transaction `tx`. */
  findConverting(tx: Db, userId: string): Promise<string | undefined>;
  /** Before a tab switch: the file questions it clears; throws while one of them converts. */
  prepareTabSwitch(userId: string, tabId: string, chosenTab: string): Promise<string[]>;
  /** After the switch: removes the documents of those questions. */
  finishTabSwitch(userId: string, answerKeys: string[]): Promise<void>;
  /** The profile's document_answer object of the applicant `userId`, as one SQL expression. */
  profileDocumentsSql(userId: SQL): SQL;
}

export interface ApplicationDeps {
  db: RootDb;
  clock: Clock;
  encryptionKey: Buffer;
  partner: PartnerConfig;
  sendMail: (message: MailMessage) => Promise<void>;
  files: ApplicationFiles;
}

export function createApplicationService(deps: ApplicationDeps) {
  const { db, clock, encryptionKey, partner, sendMail, files } = deps;

  async function requireApplication(userId: string) {
    let row = await findApplication(db, userId);
    if (!row) {
      await openApplication(db, userId);
      row = await findApplication(db, userId);
    }
    if (!row) throw new Error('application row missing after insert');
    return row;
  }

  return {
    /** The whole GET /api/profile body as JSON text (see readProfileJson). */
    async readProfileJson(userId: string): Promise<string> {
      const body = await readProfileJson(db, userId, encryptionKey, files.profileDocumentsSql);
      if (body !== null) return body;
      await requireApplication(userId);
      const created = await readProfileJson(db, userId, encryptionKey, files.profileDocumentsSql);
      if (created === null) throw new Error('application row missing after insert');
      return created;
    },

    /** One atomic JSONB merge: concurrent saves of different keys never lose each other. */
    async saveAnswers(userId: string, patch: Record<string, string>): Promise<void> {
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
      await mergeAnswers(db, userId, plain, sealed, clock.now());
    },

    async saveLastPage(userId: string, lastPage: string): Promise<void> {
      await updateUnsubmitted(db, userId, { lastPage });
    },

    /**
     * Idempotent and forward-only: a status at or behind the current one changes nothing.
     * "submitted" only confirms a submission made by submit().
     */
    async advanceWebStatus(userId: string, status: WebStatus): Promise<void> {
      const row = await requireApplication(userId);
      if (row.submittedAt) {
        if (status === 'submitted') return;
        throw new AppError('ALREADY_SUBMITTED', MESSAGES.alreadySubmitted);
      }
      if (status === 'submitted') throw new AppError('SUBMIT_REQUIRED', MESSAGES.submitFirst);
      // Entries accumulate in WEB_STATUSES order; their count is the status (docs/behaviour.md).
      const rank = WEB_STATUSES.indexOf(status) + 1;
      await writeUnsubmitted(
        db,
        userId,
        { webStatus: WEB_STATUSES.slice(0, rank) as string[] },
        sql`cardinality(${applications.webStatus}) < ${rank}`,
      );
    },

    async saveValidations(userId: string, errors: Record<string, string[]>): Promise<void> {
      const unknown = Object.keys(errors).find((key) => !isKnownAnswerKey(key));
      if (unknown) {
        throw new AppError('INVALID_ANSWER', `"${unknown}" is not a question of this application.`);
      }
      await updateUnsubmitted(db, userId, { validations: errors });
    },

    async readAddAnother(userId: string): Promise<Record<string, number>> {
      return (await requireApplication(userId)).addAnother;
    },

    async saveAddAnother(userId: string, buttonId: string, count: number): Promise<void> {
      const group = REPEAT_GROUPS.find((g) => g.id === buttonId);
      if (!group)
        throw new AppError('UNKNOWN_BUTTON', `"${buttonId}" is not an add-another button.`);
      if (count > group.max) {
        throw new AppError('TOO_MANY', `You can add at most ${group.max} of these.`);
      }
      // The count is content: the print view and the PDF show every block.
      await updateUnsubmitted(
        db,
        userId,
        contentChange(
          { addAnother: sql`${applications.addAnother} || ${jsonb({ [buttonId]: count })}` },
          clock.now(),
        ),
      );
    },

    async readTabs(userId: string): Promise<Record<string, string>> {
      return (await requireApplication(userId)).tabs;
    },

    /**
     * Records the chosen tab and clears the answers of the tab left, in one statement; refused
     * while a file of the tab left converts, whose documents go after the switch (docs/behaviour.md).
     */
    async chooseTab(userId: string, tabId: string, chosenTab: string): Promise<void> {
      const group = TAB_GROUPS.find((g) => g.id === tabId);
      if (!group) throw new AppError('UNKNOWN_TAB', `"${tabId}" is not a tab group.`);
      if (!group.tabs.some((t) => t.id === chosenTab)) {
        throw new AppError('UNKNOWN_TAB', `"${chosenTab}" is not a tab of "${tabId}".`);
      }
      const cleared = Object.fromEntries(
        listTabAnswersToClear(APPLICATION_DEFINITION, tabId, chosenTab).map((k) => [k, '']),
      );
      const fileKeys = await files.prepareTabSwitch(userId, tabId, chosenTab);
      await updateUnsubmitted(
        db,
        userId,
        contentChange(
          {
            tabs: sql`${applications.tabs} || ${jsonb({ [tabId]: chosenTab })}`,
            answer: sql`${applications.answer} || ${jsonb(cleared)}`,
          },
          clock.now(),
        ),
      );
      await files.finishTabSwitch(userId, fileKeys);
    },

    /**
     * Validates with the shared engine, clears hidden answers and freezes the application. The
     * row lock makes concurrent submits queue; all but the first find it submitted and return.
     */
    async submit(userId: string, email: string): Promise<void> {
      const now = clock.now();
      const submittedNow = await db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(applications)
          .where(eq(applications.userId, userId))
          .for('update');
        if (!row) throw new AppError('NO_APPLICATION', MESSAGES.missingInformation);
        if (row.submittedAt) return false;
        // A file still converting would change a submitted application: refuse, naming it. The
        // conversion side takes this row lock too before it starts or stores a result.
        const converting = await files.findConverting(tx, userId);
        if (converting) {
          const label =
            findQuestionEntry(APPLICATION_DEFINITION, converting)?.question.label ?? converting;
          throw new AppError('CONVERSION_PENDING', formatSubmitWhileConverting(label));
        }
        const answers = readAnswers(row, encryptionKey);
        const context = { tabs: row.tabs };
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
          userId,
          contentChange(
            {
              answer: plain,
              sensitive: sealed,
              submittedAt: now,
              webStatus: [...WEB_STATUSES],
              validations: {},
            },
            now,
          ),
        );
        return true;
      });
      if (submittedNow) await sendMail(renderSubmissionConfirmation(email, partner));
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
