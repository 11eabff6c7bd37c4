import type { MessageResponse, TabsResponse } from '@admissions/api-contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../shared/api/call-api';

export function getTabs(): Promise<TabsResponse> {
  return callApi('GET /api/tabs');
}

export function tabsQueryOptions() {
  return queryOptions({ queryKey: ['tabs'], queryFn: getTabs });
}

export function useTabs(enabled: boolean) {
  return useQuery({ ...tabsQueryOptions(), enabled });
}

/** The server clears the answers of the tab left. */
export function saveTab(tabId: string, chosenTab: string): Promise<MessageResponse> {
  return callApi('PUT /api/tabs', { body: { tab_id: tabId, chosen_tab: chosenTab } });
}
