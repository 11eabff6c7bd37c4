// The checklist's behaviour (docs/checklist.md): recommenders and their single-purpose links, the
// letters they send, the office's requests and waivers, reminders. A letter or a requested file
// is converted by the documents module's converter in a job (checklist-jobs.ts), never here.
// Every change of an item moves the application's version on (bumpChecklistVersion), so the
// staff PDF and the incremental export pick it up; the answers are never touched.
import { randomBytes } from 'node:crypto';
import {
  CHECKLIST_FILE_BASE64_MAX,
  CHECKLIST_MESSAGES,
  DOCUMENT_MESSAGES,
  RECOMMENDATION_LINK_DAYS,
  RECOMMENDATION_PATH,
  STAFF_MESSAGES,
  STATUS_PAGE_PATH,
  type ChecklistResponse,
  type RecommendationBody,
  type RecommendationPage,
  type Recommender,
  type RecommenderBody,
  type StaffRequestBody,
  type UploadedFile,
} from '@admissions/api-contract';
import { MAX_FILE_SIZE_BYTES, isValidEmail, type PartnerConfig } from '@admissions/form';
import type { Logger } from 'pino';
import type { Db, RootDb } from '../../platform/db/connect';
import type { Clock } from '../../platform/lib/clock';
import { AppError } from '../../platform/lib/app-error';
import { generateToken, hashToken, seal, unseal } from '../../platform/lib/crypto';
import type { MailMessage } from '../../platform/mail/mailer';
import type { StorageDriver } from '../../platform/storage/storage-driver';
import {
  deleteObjectsQuietly,
  removeUnreferencedObjects,
} from '../../platform/storage/unreferenced-objects';
import {
  bumpChecklistVersion,
  findApplication,
  lockApplication,
  readPlainAnswers,
} from '../application';
import { findAccountById } from '../auth';
import {
  allowanceKey,
  takeAllowance,
  type Allowance,
  renderChecklistRequest,
  renderRecommendationInvitation,
  renderRecommendationReminder,
  type RecommendationMail,
} from '../mail';
import {
  APPLICATION_ITEM,
  buildChecklist,
  countRecommenderLimits,
  requestItemId,
  type RecommenderRow,
} from './checklist-rules';
import {
  claimLetter,
  claimRequestSlot,
  failStuckConversions,
  findRecommender,
  findRecommenderByToken,
  findRequestById,
  insertRecommender,
  insertRequest,
  insertWaiver,
  listDueReminders,
  listReferencedChecklistKeys,
  listRecommenders,
  listRequests,
  listWaivers,
  recordChecklistEvent,
  takeApplicantReminder,
  takeAutoReminder,
  updateOpenRecommender,
} from './checklist-store';
import type { ChecklistConversionJob } from './checklist-jobs';
import { recordChecklistWebhooks } from './checklist-webhooks';
import type { QueueWebhookDeliveries } from '../webhooks';

const DAY_MS = 24 * 60 * 60 * 1000;
export const LINK_TTL_MS = RECOMMENDATION_LINK_DAYS * DAY_MS;
/** Automatic reminders: at most three, a week apart (from the invitation, then each other). */
export const AUTO_REMINDER_RULE = { max: 3, gapMs: 7 * DAY_MS } as const;
/** The applicant's own reminders: one a day. */
export const APPLICANT_REMINDER_GAP_MS = DAY_MS;
/** Where letters and requested files live in storage (the sources, then their PDFs). */
export const CHECKLIST_PREFIX = 'checklist/';

const BARE_ADDRESS = /^[a-z0-9!#$%&'*+/=?^_`{|}~.-]+@[a-z0-9-]+(\.[a-z0-9-]+)+$/;

/** Invitations (new links) an application may send: ten at once, then four an hour. */
const INVITATION_ALLOWANCE = { burst: 10, perHour: 4 } as const;

/** What a new recommender (a new address) must not inherit from the one before. */
const CLEARED_LETTER = {
  knownYears: null,
  capacity: null,
  letterText: null,
  letterFileName: null,
  letterSourceKey: null,
  letterPdfKey: null,
  conversionToken: null,
  conversionStatus: null,
  conversionMessage: null,
  conversionStartedAt: null,
} as const;

/** The FERPA release question on Final Steps ("Recommendation Waiver"). */
const FERPA_KEY = 'counselor_waiver_request';
const NAME_KEYS = ['first_name', 'last_name'] as const;

export interface ChecklistServiceDeps {
  db: RootDb;
  clock: Clock;
  partner: PartnerConfig;
  storage: StorageDriver;
  encryptionKey: Buffer;
  /** Keys the per-address and per-application mail allowances. */
  hmacKey: Buffer;
  /** MAIL_PER_ADDRESS_BURST, MAIL_PER_ADDRESS_PER_HOUR: every e-mail to one address counts. */
  mailLimits: Allowance;
  publicUrl: string;
  logger: Logger;
  sendMail: (message: MailMessage) => Promise<void>;
  queueConversion: (job: ChecklistConversionJob) => Promise<void>;
  /** Queues the webhook deliveries a committed change recorded. */
  queueWebhooks: QueueWebhookDeliveries;
}

/** Who acts, for the audit trail. */
export interface ChecklistActor {
  name: string;
  ip: string | null;
}

function createStorageKey(applicationId: string, extension: string): string {
  return `${CHECKLIST_PREFIX}${applicationId}/${randomBytes(18).toString('base64url')}.${extension}`;
}

/**
 * The bytes of a file sent inside a JSON body. Only the name's extension and the size are looked
 * at here; what the bytes are is decided by the converter, in a sandbox child.
 */
export function decodeUploadedFile(file: UploadedFile): Uint8Array {
  if (!/\.(pdf|docx)$/i.test(file.file_name.trim())) {
    throw new AppError('CHECKLIST_FILE_REFUSED', CHECKLIST_MESSAGES.fileTypeRefused);
  }
  if (file.content_base64.length > CHECKLIST_FILE_BASE64_MAX) {
    throw new AppError('CHECKLIST_FILE_REFUSED', CHECKLIST_MESSAGES.fileTooLarge);
  }
  const bytes = Buffer.from(file.content_base64, 'base64');
  if (bytes.length === 0) {
    throw new AppError('CHECKLIST_FILE_REFUSED', CHECKLIST_MESSAGES.letterMissing);
  }
  if (bytes.length > MAX_FILE_SIZE_BYTES) {
    throw new AppError('CHECKLIST_FILE_REFUSED', CHECKLIST_MESSAGES.fileTooLarge);
  }
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
}

function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function describeRecommender(row: RecommenderRow, now: Date): Recommender {
  const remindAfter = row.applicantRemindedAt
    ? new Date(row.applicantRemindedAt.getTime() + APPLICANT_REMINDER_GAP_MS)
    : null;
  return {
    id: row.id,
    type: row.type as Recommender['type'],
    name: row.name,
    email: row.email,
    status: row.submittedAt ? 'received' : 'invited',
    invited_at: row.linkSentAt.toISOString(),
    link_expires_at: row.linkExpiresAt.toISOString(),
    ...(row.submittedAt ? { received_at: row.submittedAt.toISOString() } : {}),
    ferpa_waived: row.ferpaWaived,
    reminders_sent: row.autoReminders,
    ...(!row.submittedAt && remindAfter && remindAfter > now
      ? { remind_after: remindAfter.toISOString() }
      : {}),
  };
}

export function createChecklistService(deps: ChecklistServiceDeps) {
  const { db, clock, partner, storage, encryptionKey, logger } = deps;
  const settings = partner.recommendations;
  const limits = countRecommenderLimits(settings);

  const readApplicantName = async (applicationId: string): Promise<string> => {
    const answers = await readPlainAnswers(db, applicationId, NAME_KEYS);
    const name = NAME_KEYS.map((k) => (answers[k] ?? '').trim())
      .filter((part) => part !== '')
      .join(' ');
    return name || 'An applicant';
  };

  const buildLink = (token: string) => `${deps.publicUrl}${RECOMMENDATION_PATH}/${token}`;

  const mailRecommender = async (
    row: RecommenderRow,
    kind: 'invitation' | 'reminder',
  ): Promise<void> => {
    if (!row.tokenSealed) return;
    const mail: RecommendationMail = {
      to: row.email,
      recommenderName: row.name,
      applicantName: await readApplicantName(row.applicationId),
      link: buildLink(unseal(encryptionKey, row.tokenSealed)),
      expiresAt: row.linkExpiresAt,
      ferpaWaived: row.ferpaWaived,
    };
    await deps.sendMail(
      kind === 'invitation'
        ? renderRecommendationInvitation(mail, partner)
        : renderRecommendationReminder(mail, partner),
    );
  };

  /** A fresh link: the token goes into the e-mail, its hash finds the row, its seal reminds. */
  const issueLink = (now: Date) => {
    const token = generateToken();
    return {
      tokenHash: hashToken(token),
      tokenSealed: seal(encryptionKey, token),
      linkSentAt: now,
      linkExpiresAt: new Date(now.getTime() + LINK_TTL_MS),
      autoReminders: 0,
      lastReminderAt: null,
      applicantRemindedAt: null,
    };
  };

  const readChecklist = async (applicationId: string): Promise<ChecklistResponse> => {
    const application = await findApplication(db, applicationId);
    if (!application) throw new AppError('NOT_FOUND', STAFF_MESSAGES.notFound);
    const [recommenderRows, requests, waivers, ferpa] = await Promise.all([
      listRecommenders(db, applicationId),
      listRequests(db, applicationId),
      listWaivers(db, applicationId),
      readPlainAnswers(db, applicationId, [FERPA_KEY]),
    ]);
    const { items, complete } = buildChecklist({
      submittedAt: application.submittedAt,
      recommenders: recommenderRows,
      requests,
      waivers,
      settings,
    });
    const answer = ferpa[FERPA_KEY];
    const now = clock.now();
    return {
      submitted: application.submittedAt !== null,
      complete,
      ferpa_waived: answer === 'Y' ? true : answer === 'N' ? false : null,
      items,
      recommenders: recommenderRows.map((r) => describeRecommender(r, now)),
      limits,
    };
  };

  const checkRecommenderBody = async (applicationId: string, body: RecommenderBody) => {
    const email = normalizeEmail(body.email);
    // Stricter than the form's check: a bare address only (no display name, quotes or trailing
    // dot), so "not your own" compares what the mail server will deliver to.
    if (!isValidEmail(email) || !BARE_ADDRESS.test(email)) {
      throw new AppError('VALIDATION_FAILED', "Please enter the recommender's e-mail address.");
    }
    const application = await findApplication(db, applicationId);
    const account = application ? await findAccountById(db, application.userId) : undefined;
    if (account && normalizeEmail(account.email) === email) {
      throw new AppError(
        'VALIDATION_FAILED',
        "Please enter your recommender's e-mail address, not your own.",
      );
    }
    return { email, name: body.name.trim() };
  };

  const countOfType = (rows: RecommenderRow[], type: string, except?: string) =>
    rows.filter((r) => r.type === type && r.id !== except).length;

  /** The FERPA answer as it is now; 409 until it is given. */
  const readFerpaWaived = async (tx: Db, applicationId: string): Promise<boolean> => {
    const ferpa = (await readPlainAnswers(tx, applicationId, [FERPA_KEY]))[FERPA_KEY];
    if (ferpa !== 'Y' && ferpa !== 'N') throw new AppError('FERPA_UNANSWERED');
    return ferpa === 'Y';
  };

  /**
   * An invitation e-mails someone the applicant names: it counts against that address's mail
   * allowance (as every e-mail the service sends to an address) and the application's
   * invitations, so changing an address over and over sends no flood.
   */
  const takeInvitation = async (tx: Db, applicationId: string, email: string, now: Date) => {
    if (
      !(await takeAllowance(tx, allowanceKey(deps.hmacKey, 'mail', email), now, deps.mailLimits))
    ) {
      throw new AppError('RATE_LIMITED', CHECKLIST_MESSAGES.addressMailLimited);
    }
    const invitations = allowanceKey(deps.hmacKey, 'invite', applicationId);
    if (!(await takeAllowance(tx, invitations, now, INVITATION_ALLOWANCE))) {
      throw new AppError('RATE_LIMITED', CHECKLIST_MESSAGES.invitationsLimited);
    }
  };

  return {
    readChecklist,

    async addRecommender(
      applicationId: string,
      body: RecommenderBody,
      actor: ChecklistActor,
    ): Promise<ChecklistResponse> {
      const { email, name } = await checkRecommenderBody(applicationId, body);
      const now = clock.now();
      const row = await db.transaction(async (tx) => {
        // Under the application's lock: two adds at once cannot both pass the limit.
        await lockApplication(tx, applicationId);
        const ferpaWaived = await readFerpaWaived(tx, applicationId);
        const existing = await listRecommenders(tx, applicationId);
        if (countOfType(existing, body.type) >= limits[body.type]) {
          throw new AppError('RECOMMENDER_LIMIT');
        }
        await takeInvitation(tx, applicationId, email, now);
        const inserted = await insertRecommender(tx, {
          applicationId,
          type: body.type,
          name,
          email,
          ferpaWaived,
          ...issueLink(now),
        });
        await recordChecklistEvent(tx, {
          applicationId,
          action: 'link-sent',
          actor: actor.name,
          recommenderId: inserted.id,
          ip: actor.ip,
          at: now,
        });
        await bumpChecklistVersion(tx, applicationId);
        return inserted;
      });
      await mailRecommender(row, 'invitation');
      return readChecklist(applicationId);
    },

    async updateRecommender(
      applicationId: string,
      id: string,
      body: RecommenderBody,
      actor: ChecklistActor,
    ): Promise<ChecklistResponse> {
      const { email, name } = await checkRecommenderBody(applicationId, body);
      const now = clock.now();
      const changed = await db.transaction(async (tx) => {
        await lockApplication(tx, applicationId);
        const current = await findRecommender(tx, applicationId, id);
        if (!current) throw new AppError('NOT_FOUND', CHECKLIST_MESSAGES.recommenderNotFound);
        if (current.submittedAt) throw new AppError('RECOMMENDER_LOCKED');
        // A letter in conversion belongs to the person who sent it: renaming or readdressing
        // the recommender now would credit it to someone else.
        if (current.conversionStatus === 'converting') {
          throw new AppError('CONVERSION_IN_PROGRESS', CHECKLIST_MESSAGES.letterInConversion);
        }
        if (current.type !== body.type) {
          const existing = await listRecommenders(tx, applicationId);
          if (countOfType(existing, body.type, id) >= limits[body.type]) {
            throw new AppError('RECOMMENDER_LIMIT');
          }
        }
        const newAddress = current.email !== email;
        if (newAddress) await takeInvitation(tx, applicationId, email, now);
        const updated = await updateOpenRecommender(tx, applicationId, id, {
          type: body.type,
          name,
          email,
          // A new address is a new recommender: a new link (the old one finds no row from now
          // on), the FERPA answer as it is now, and nothing of the previous person's upload.
          ...(newAddress
            ? {
                ...issueLink(now),
                ferpaWaived: await readFerpaWaived(tx, applicationId),
                ...CLEARED_LETTER,
              }
            : {}),
        });
        if (!updated) throw new AppError('RECOMMENDER_LOCKED');
        if (newAddress) {
          await recordChecklistEvent(tx, {
            applicationId,
            action: 'link-sent',
            actor: actor.name,
            recommenderId: id,
            ip: actor.ip,
            at: now,
          });
        }
        await bumpChecklistVersion(tx, applicationId);
        if (!newAddress) {
          await recordChecklistEvent(tx, {
            applicationId,
            action: 'recommender-changed',
            actor: actor.name,
            recommenderId: id,
            ip: actor.ip,
            at: now,
          });
        }
        return newAddress ? { updated, previousSource: current.letterSourceKey } : null;
      });
      if (changed) {
        if (changed.previousSource) await storage.delete(changed.previousSource);
        await mailRecommender(changed.updated, 'invitation');
      }
      return readChecklist(applicationId);
    },

    async removeRecommender(
      applicationId: string,
      id: string,
      actor: ChecklistActor,
    ): Promise<ChecklistResponse> {
      const now = clock.now();
      await db.transaction(async (tx) => {
        await lockApplication(tx, applicationId);
        const current = await findRecommender(tx, applicationId, id);
        if (!current) throw new AppError('NOT_FOUND', CHECKLIST_MESSAGES.recommenderNotFound);
        if (current.submittedAt) throw new AppError('RECOMMENDER_LOCKED');
        const removed = await updateOpenRecommender(tx, applicationId, id, {
          removedAt: now,
          tokenHash: null,
          tokenSealed: null,
          // A letter still converting is dropped with its recommender.
          conversionToken: null,
          conversionStatus: null,
        });
        if (!removed) throw new AppError('RECOMMENDER_LOCKED');
        await recordChecklistEvent(tx, {
          applicationId,
          action: 'recommender-removed',
          actor: actor.name,
          recommenderId: id,
          ip: actor.ip,
          at: now,
        });
        await bumpChecklistVersion(tx, applicationId);
      });
      return readChecklist(applicationId);
    },

    async remindRecommender(
      applicationId: string,
      id: string,
      actor: ChecklistActor,
    ): Promise<ChecklistResponse> {
      const now = clock.now();
      const current = await findRecommender(db, applicationId, id);
      if (!current) throw new AppError('NOT_FOUND', CHECKLIST_MESSAGES.recommenderNotFound);
      if (current.submittedAt) throw new AppError('RECOMMENDER_LOCKED');
      if (current.linkExpiresAt <= now) {
        // A reminder with a dead link helps nobody: the recommender gets a fresh one instead.
        const renewed = await db.transaction(async (tx) => {
          await lockApplication(tx, applicationId);
          await takeInvitation(tx, applicationId, current.email, now);
          const row = await updateOpenRecommender(tx, applicationId, id, {
            ...issueLink(now),
            ferpaWaived: await readFerpaWaived(tx, applicationId),
            applicantRemindedAt: now,
          });
          if (!row) throw new AppError('RECOMMENDER_LOCKED');
          await recordChecklistEvent(tx, {
            applicationId,
            action: 'link-sent',
            actor: actor.name,
            recommenderId: id,
            ip: actor.ip,
            at: now,
          });
          return row;
        });
        await mailRecommender(renewed, 'invitation');
        return readChecklist(applicationId);
      }
      const taken = await db.transaction(async (tx) => {
        const row = await takeApplicantReminder(
          tx,
          applicationId,
          id,
          now,
          APPLICANT_REMINDER_GAP_MS,
        );
        if (!row) return null;
        const key = allowanceKey(deps.hmacKey, 'mail', row.email);
        if (!(await takeAllowance(tx, key, now, deps.mailLimits))) {
          throw new AppError('RATE_LIMITED', CHECKLIST_MESSAGES.addressMailLimited);
        }
        await recordChecklistEvent(tx, {
          applicationId,
          action: 'reminder-sent',
          actor: actor.name,
          recommenderId: id,
          ip: actor.ip,
          at: now,
        });
        return row;
      });
      if (!taken) {
        const latest = await findRecommender(db, applicationId, id);
        if (!latest) throw new AppError('NOT_FOUND', CHECKLIST_MESSAGES.recommenderNotFound);
        if (latest.submittedAt) throw new AppError('RECOMMENDER_LOCKED');
        const next = new Date(
          (latest.applicantRemindedAt?.getTime() ?? now.getTime()) + APPLICANT_REMINDER_GAP_MS,
        );
        throw new AppError('REMINDER_TOO_SOON', undefined, {
          headers: {
            'retry-after': String(Math.max(1, Math.ceil((next.getTime() - now.getTime()) / 1000))),
          },
        });
      }
      await mailRecommender(taken, 'reminder');
      return readChecklist(applicationId);
    },

    /**
     * The weekly reminders (a housekeeping sweep): each recommender still owing a letter is
     * reminded a week after the invitation, then a week after each reminder, three times at most.
     * Returns how many were sent.
     */
    async sendDueReminders(now: Date): Promise<number> {
      let sent = 0;
      for (const due of await listDueReminders(db, now, AUTO_REMINDER_RULE)) {
        const taken = await takeAutoReminder(db, due.id, now, AUTO_REMINDER_RULE);
        if (!taken) continue;
        await recordChecklistEvent(db, {
          applicationId: taken.applicationId,
          action: 'reminder-sent',
          actor: 'system',
          recommenderId: taken.id,
          at: now,
        });
        await mailRecommender(taken, 'reminder');
        sent++;
      }
      return sent;
    },

    /**
     * A letter or requested file still converting `afterMs` after its upload lost its job (a
     * worker died past the queue's retries): it fails with "try again in a few minutes", so the
     * recommender or applicant can send it again instead of waiting for ever. Returns the count.
     */
    async failStuckConversions(now: Date, afterMs: number): Promise<number> {
      return failStuckConversions(
        db,
        new Date(now.getTime() - afterMs),
        DOCUMENT_MESSAGES.conversionUnavailable,
      );
    },

    /**
     * Letters and requested files no row refers to any more, older than `graceMs` (a file is
     * stored just before the row that records it): those of a deleted account (its rows went
     * with it) and those a conversion stored before its row was taken back. Returns the count.
     */
    async deleteOrphanFiles(now: Date, graceMs: number): Promise<number> {
      return removeUnreferencedObjects(storage, [CHECKLIST_PREFIX], {
        before: new Date(now.getTime() - graceMs),
        listReferenced: (keys) => listReferencedChecklistKeys(db, keys),
        remove: (keys) =>
          deleteObjectsQuietly(storage, keys, (error) =>
            logger.warn({ err: error }, 'could not remove an orphaned checklist file'),
          ),
      });
    },

    async readRecommendationPage(token: string, ip: string | null): Promise<RecommendationPage> {
      const now = clock.now();
      const row = await findRecommenderByToken(db, hashToken(token));
      if (!row) throw new AppError('RECOMMENDATION_LINK_INVALID');
      if (row.linkExpiresAt <= now && !row.submittedAt) {
        throw new AppError('RECOMMENDATION_LINK_EXPIRED');
      }
      await recordChecklistEvent(db, {
        applicationId: row.applicationId,
        action: 'link-opened',
        actor: 'recommender',
        recommenderId: row.id,
        ip,
        at: now,
      });
      const status = row.submittedAt
        ? 'received'
        : row.conversionStatus === 'converting'
          ? 'converting'
          : row.conversionStatus === 'failed'
            ? 'failed'
            : 'open';
      const message =
        status === 'received'
          ? CHECKLIST_MESSAGES.letterReceived
          : status === 'converting'
            ? CHECKLIST_MESSAGES.letterConverting
            : status === 'failed'
              ? (row.conversionMessage ?? '')
              : undefined;
      return {
        applicant_name: await readApplicantName(row.applicationId),
        recommender_name: row.name,
        type: row.type as RecommendationPage['type'],
        school_name: partner.schoolName,
        ferpa_waived: row.ferpaWaived,
        status,
        ...(message !== undefined ? { message } : {}),
        expires_at: row.linkExpiresAt.toISOString(),
        text_limit: settings.letterTextLimit,
      };
    },

    async submitRecommendation(
      token: string,
      body: RecommendationBody,
      ip: string | null,
    ): Promise<{ status: 'converting' | 'received'; message: string }> {
      const now = clock.now();
      const tokenHash = hashToken(token);
      const text = body.letter_text?.trim() ?? '';
      if (body.letter_file && text !== '') {
        throw new AppError(
          'CHECKLIST_FILE_REFUSED',
          'Please either upload your letter or type it, not both.',
        );
      }
      if (!body.letter_file && text === '') {
        throw new AppError('CHECKLIST_FILE_REFUSED', CHECKLIST_MESSAGES.letterMissing);
      }
      if ([...text].length > settings.letterTextLimit) {
        throw new AppError('CHECKLIST_FILE_REFUSED', CHECKLIST_MESSAGES.letterTooLong);
      }
      const explain = async (): Promise<never> => {
        const row = await findRecommenderByToken(db, tokenHash);
        if (!row) throw new AppError('RECOMMENDATION_LINK_INVALID');
        if (row.submittedAt || row.conversionStatus === 'converting') {
          throw new AppError('RECOMMENDATION_SUBMITTED');
        }
        throw new AppError('RECOMMENDATION_LINK_EXPIRED');
      };
      const answers = { knownYears: body.known_years, capacity: body.capacity };

      if (!body.letter_file) {
        const received = await db.transaction(async (tx) => {
          const row = await claimLetter(tx, tokenHash, now, {
            ...answers,
            letterText: text,
            letterFileName: null,
            letterSourceKey: null,
            letterPdfKey: null,
            conversionToken: null,
            conversionStatus: null,
            conversionMessage: null,
            submittedAt: now,
          });
          if (!row) return null;
          await recordChecklistEvent(tx, {
            applicationId: row.applicationId,
            action: 'letter-submitted',
            actor: 'recommender',
            recommenderId: row.id,
            ip,
            at: now,
          });
          await bumpChecklistVersion(tx, row.applicationId);
          return recordChecklistWebhooks(tx, row.applicationId, now, 'received');
        });
        if (!received) return explain();
        await deps.queueWebhooks(received);
        return { status: 'received', message: CHECKLIST_MESSAGES.letterReceived };
      }

      const bytes = decodeUploadedFile(body.letter_file);
      const current = await findRecommenderByToken(db, tokenHash);
      if (!current) return explain();
      const sourceKey = createStorageKey(current.applicationId, 'src');
      await storage.write(sourceKey, bytes, 'application/octet-stream');
      const conversionToken = generateToken();
      const claimed = await claimLetter(db, tokenHash, now, {
        ...answers,
        letterText: null,
        letterFileName: body.letter_file.file_name.trim(),
        letterSourceKey: sourceKey,
        conversionToken,
        conversionStatus: 'converting',
        conversionMessage: null,
        conversionStartedAt: now,
      });
      if (!claimed) {
        await storage.delete(sourceKey);
        return explain();
      }
      if (current.letterSourceKey && current.letterSourceKey !== sourceKey) {
        // The source of a failed earlier upload.
        await storage.delete(current.letterSourceKey);
      }
      await deps.queueConversion({ kind: 'letter', id: claimed.id, token: conversionToken });
      return { status: 'converting', message: CHECKLIST_MESSAGES.letterConverting };
    },

    async uploadRequestedItem(
      applicationId: string,
      itemId: string,
      file: UploadedFile,
    ): Promise<ChecklistResponse> {
      const requestId = /^request-([0-9a-f-]{36})$/.exec(itemId)?.[1];
      const request = requestId ? await findRequestById(db, requestId) : undefined;
      if (!request || request.applicationId !== applicationId) {
        const known = (await readChecklist(applicationId)).items.some((i) => i.id === itemId);
        if (known)
          throw new AppError('CHECKLIST_ITEM_CLOSED', CHECKLIST_MESSAGES.itemNotUploadable);
        throw new AppError('NOT_FOUND', CHECKLIST_MESSAGES.itemNotFound);
      }
      const bytes = decodeUploadedFile(file);
      const sourceKey = createStorageKey(applicationId, 'src');
      await storage.write(sourceKey, bytes, 'application/octet-stream');
      const conversionToken = generateToken();
      const claimed = await claimRequestSlot(db, applicationId, request.id, {
        fileName: file.file_name.trim(),
        sourceKey,
        conversionToken,
        conversionStatus: 'converting',
        conversionMessage: null,
        conversionStartedAt: clock.now(),
      });
      if (!claimed) {
        await storage.delete(sourceKey);
        const latest = await findRequestById(db, request.id);
        if (latest?.conversionStatus === 'converting') {
          throw new AppError('CONVERSION_IN_PROGRESS', CHECKLIST_MESSAGES.conversionBusy);
        }
        throw new AppError(
          'CHECKLIST_ITEM_CLOSED',
          latest?.receivedAt
            ? CHECKLIST_MESSAGES.itemAlreadyReceived
            : CHECKLIST_MESSAGES.itemNotUploadable,
        );
      }
      if (request.sourceKey && request.sourceKey !== sourceKey)
        await storage.delete(request.sourceKey);
      await deps.queueConversion({ kind: 'material', id: claimed.id, token: conversionToken });
      return readChecklist(applicationId);
    },

    async requestItem(
      applicationId: string,
      body: StaffRequestBody,
      actor: ChecklistActor,
    ): Promise<ChecklistResponse> {
      const application = await findApplication(db, applicationId);
      if (!application) throw new AppError('NOT_FOUND', STAFF_MESSAGES.notFound);
      const now = clock.now();
      const title = body.title.trim();
      const message = body.message.trim();
      const { request, deliveries } = await db.transaction(async (tx) => {
        const inserted = await insertRequest(tx, {
          applicationId,
          title,
          message,
          requestedBy: actor.name,
          requestedAt: now,
        });
        await recordChecklistEvent(tx, {
          applicationId,
          action: 'request',
          actor: actor.name,
          itemId: requestItemId(inserted.id),
          ip: actor.ip,
          at: now,
        });
        await bumpChecklistVersion(tx, applicationId);
        return {
          request: inserted,
          deliveries: await recordChecklistWebhooks(tx, applicationId, now, 'requested'),
        };
      });
      await deps.queueWebhooks(deliveries);
      const account = await findAccountById(db, application.userId);
      if (account) {
        await deps.sendMail(
          renderChecklistRequest(
            account.email,
            { title: request.title, message, statusUrl: `${deps.publicUrl}${STATUS_PAGE_PATH}` },
            partner,
          ),
        );
      } else {
        logger.warn({ applicationId }, 'requested item: the applicant has no account to e-mail');
      }
      return readChecklist(applicationId);
    },

    async waiveItem(
      applicationId: string,
      itemId: string,
      actor: ChecklistActor,
    ): Promise<ChecklistResponse> {
      const checklist = await readChecklist(applicationId);
      const item = checklist.items.find((i) => i.id === itemId);
      if (!item) throw new AppError('NOT_FOUND', CHECKLIST_MESSAGES.itemNotFound);
      if (item.id === APPLICATION_ITEM || item.status !== 'awaiting') {
        throw new AppError(
          'CHECKLIST_ITEM_CLOSED',
          item.status === 'waived'
            ? 'This item is already waived.'
            : item.status === 'received'
              ? CHECKLIST_MESSAGES.itemAlreadyReceived
              : 'The application itself cannot be waived.',
        );
      }
      const now = clock.now();
      const deliveries = await db.transaction(async (tx) => {
        const waived = await insertWaiver(tx, {
          applicationId,
          itemId,
          waivedBy: actor.name,
          waivedAt: now,
        });
        if (!waived) throw new AppError('CHECKLIST_ITEM_CLOSED', 'This item is already waived.');
        await recordChecklistEvent(tx, {
          applicationId,
          action: 'waiver',
          actor: actor.name,
          itemId,
          ip: actor.ip,
          at: now,
        });
        await bumpChecklistVersion(tx, applicationId);
        return recordChecklistWebhooks(tx, applicationId, now, 'waived');
      });
      await deps.queueWebhooks(deliveries);
      return readChecklist(applicationId);
    },
  };
}

export type ChecklistService = ReturnType<typeof createChecklistService>;
