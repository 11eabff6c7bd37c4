// The staff area's checklist routes (issue #30): any staff member reads an application's
// checklist; a processor requests an item from the applicant or waives one. The checklist module
// does the work and writes the audit row naming the staff member.
import type { FastifyInstance } from 'fastify';
import { ENDPOINTS } from '@admissions/api-contract';
import { registerEndpoint } from '../../platform/http/register-endpoint';
import type { ChecklistService } from '../checklist';
import { currentStaff } from './require-staff';
import { randomBytes } from 'node:crypto';
import type { Db } from '../../platform/db/connect';
import type { Clock } from '../../platform/lib/clock';
import { recordServiceRead } from '../service';

export function registerStaffChecklist(
  app: FastifyInstance,
  deps: { db: Db; clock: Clock; checklist: ChecklistService },
): void {
  const { db, clock, checklist } = deps;
  // It names recommenders and their addresses: a read of the application like any other, with
  // its row in the staff audit.
  registerEndpoint(app, ENDPOINTS.readStaffChecklist, {
    handler: async (request) => {
      const user = currentStaff(request);
      const answer = await checklist.readChecklist(request.params.id);
      await recordServiceRead(db, {
        tokenId: `staff:${randomBytes(9).toString('base64url')}`,
        applicationId: request.params.id,
        action: 'checklist',
        shown: { answers: [], documents: answer.items.map((i) => i.id) },
        ip: request.ip,
        at: clock.now(),
        staff: { id: user.staffId, email: user.email },
      });
      return answer;
    },
  });

  registerEndpoint(app, ENDPOINTS.requestStaffItem, {
    handler: async (request) =>
      checklist.requestItem(request.params.id, request.body, {
        name: currentStaff(request).email,
        ip: request.ip,
      }),
  });

  registerEndpoint(app, ENDPOINTS.waiveStaffItem, {
    handler: async (request) =>
      checklist.waiveItem(request.params.id, request.body.item, {
        name: currentStaff(request).email,
        ip: request.ip,
      }),
  });
}
