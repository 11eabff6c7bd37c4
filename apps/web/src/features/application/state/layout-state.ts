// Tabs and add-another: which tab of each group is chosen and how many blocks each repeat group
// shows. Both are saved on their own calls (PUT /api/tabs, PUT /api/add-another).
import { createStore, type Store } from './create-store';

export interface LayoutView {
  tabs: Readonly<Record<string, string>>;
  addAnother: Readonly<Record<string, number>>;
}

export class LayoutState {
  readonly store: Store<LayoutView>;

  constructor(initial: LayoutView) {
    this.store = createStore(initial);
  }

  get tabs(): Readonly<Record<string, string>> {
    return this.store.get().tabs;
  }

  chooseTab(groupId: string, tabId: string): void {
    const view = this.store.get();
    this.store.set({ ...view, tabs: { ...view.tabs, [groupId]: tabId } });
  }

  setBlockCount(groupId: string, count: number): void {
    const view = this.store.get();
    this.store.set({ ...view, addAnother: { ...view.addAnother, [groupId]: count } });
  }
}
