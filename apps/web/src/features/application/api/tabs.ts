import { API_ROUTES } from '@admissions/api-contract';
import type { MessageResponse, TabsResponse } from '@admissions/api-contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchJson } from '../../../shared/api/fetch-handler';

export function getTabs(): Promise<TabsResponse> {
  return fetchJson<TabsResponse>(API_ROUTES.tabs, 'GET');
}

export function tabsQueryOptions() {
  return queryOptions({ queryKey: ['tabs'], queryFn: getTabs });
}

export function useTabs(enabled: boolean) {
  return useQuery({ ...tabsQueryOptions(), enabled });
}

/** The server clears the answers of the tab left. */
export function saveTab(tabId: string, chosenTab: string): Promise<MessageResponse> {
  return fetchJson<MessageResponse>(API_ROUTES.tabs, 'PUT', {
    tab_id: tabId,
    chosen_tab: chosenTab,
  });
}
