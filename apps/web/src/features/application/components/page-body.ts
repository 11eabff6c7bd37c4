// What a form page shows below its title, loaded after the title has painted (application-page.tsx).
export { PageActions } from './page-actions';
export { SectionView } from './section-view';
