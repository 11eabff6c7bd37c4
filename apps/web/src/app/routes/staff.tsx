// The staff area (issue #18, docs/screens-and-routes.md): every page in one bundle of its own,
// so the applicant's pages carry none of it. Its own session; no applicant frame or idle time-out.
// The style sheets of the Mantine components only the staff pages use: loaded with this route,
// not with the applicant's first page (main.tsx holds the shared ones).
import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/FloatingIndicator.css';
import '@mantine/core/styles/Image.css';
import '@mantine/core/styles/Pagination.css';
import '@mantine/core/styles/Progress.css';
import '@mantine/core/styles/SegmentedControl.css';
import '@mantine/core/styles/SimpleGrid.css';
import '@mantine/core/styles/Table.css';
export { ApplicationList as StaffList } from '../../features/staff/components/application-list';
export { ApplicationPage as StaffApplication } from '../../features/staff/components/application-page';
export { ExportsPage as StaffExports } from '../../features/staff/components/exports-page';
export { StaffSetupPage as StaffSetup } from '../../features/staff/components/setup-page';
export { StaffSignInPage as StaffSignIn } from '../../features/staff/components/sign-in-page';
export { StaffLayout } from '../../features/staff/components/staff-layout';
export { WebhooksPage as StaffWebhooks } from '../../features/staff/components/webhooks-page';
