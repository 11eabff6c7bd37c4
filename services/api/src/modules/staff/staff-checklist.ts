// The staff area's checklist routes (issue #30): any staff member reads an application's
// checklist; a processor requests an item from the applicant or waives one. The checklist module
// does the work and writes the audit row naming the staff member.
import type { FastifyInstance } from 'fastify';
import { ENDPOINTS } from '@admissions/api-contract';
import { registerEndpoint } from '../../platform/http/register-endpoint';
import type { ChecklistService } from '../checklist';
import { currentStaff } from './require-staff';

export function registerStaffChecklist(app: FastifyInstance, checklist: ChecklistService): void {
  registerEndpoint(app, ENDPOINTS.readStaffChecklist, {
    handler: async (request) => checklist.readChecklist(request.params.id),
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
