// Which application an applicant's request acts on: resolved once per request from the session's
// user, so the SPEC's routes (/api/profile, /api/answer, …) keep their shapes.
import type { FastifyRequest } from 'fastify';
import type { RootDb } from '../../platform/db/connect';
import type { Clock } from '../../platform/lib/clock';
import { readReceiptTime } from '../../platform/http/receipt-time';
import { currentUser } from '../auth';
import { readCurrentApplication } from './application-store';

/** The applicant behind a request, their current application and when the request arrived. */
export interface Applicant {
  userId: string;
  email: string;
  applicationId: string;
  roundCode: string;
  /** The deadline is judged by this, and a submit records it as submitted_at. */
  receivedAt: Date;
}

export type ApplicantResolver = (request: FastifyRequest) => Promise<Applicant>;

/**
 * The resolver routes of `applicant` access call: one prepared, indexed read of the applicant's
 * latest-chosen application (starting their first when they have none), cached for the request.
 */
export function createApplicantResolver(db: RootDb, clock: Clock): ApplicantResolver {
  const resolved = new WeakMap<FastifyRequest, Promise<Applicant>>();
  return (request) => {
    let applicant = resolved.get(request);
    if (!applicant) {
      const user = currentUser(request);
      const receivedAt = readReceiptTime(request, clock);
      applicant = readCurrentApplication(db, user.userId, receivedAt).then((row) => ({
        userId: user.userId,
        email: user.email,
        applicationId: row.id,
        roundCode: row.round_code,
        receivedAt,
      }));
      resolved.set(request, applicant);
    }
    return applicant;
  };
}
