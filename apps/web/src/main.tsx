// Mantine's styles for the components the SPA uses, not its whole sheet (257 kB, 31 kB brotli):
// the sheet blocks the first paint of every page, so its size is paid on each first visit. In
// the order of Mantine's own styles.css; test/first-load.test.ts fails when a component the
// build contains has no styles here (add its file, and the files of the parts it is built from).
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/default-css-variables.css';
import '@mantine/core/styles/global.css';
import '@mantine/core/styles/ScrollArea.css';
import '@mantine/core/styles/UnstyledButton.css';
import '@mantine/core/styles/VisuallyHidden.css';
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/Popover.css';
import '@mantine/core/styles/Loader.css';
import '@mantine/core/styles/ActionIcon.css';
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Group.css';
import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Text.css';
import '@mantine/core/styles/Anchor.css';
import '@mantine/core/styles/Combobox.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/CheckboxCard.css';
import '@mantine/core/styles/CheckboxIndicator.css';
import '@mantine/core/styles/Checkbox.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Card.css';
import '@mantine/core/styles/Container.css';
import '@mantine/core/styles/Divider.css';
import '@mantine/core/styles/List.css';
import '@mantine/core/styles/Modal.css';
import '@mantine/core/styles/Notification.css';
import '@mantine/core/styles/PasswordInput.css';
import '@mantine/core/styles/RadioCard.css';
import '@mantine/core/styles/RadioIndicator.css';
import '@mantine/core/styles/Radio.css';
import '@mantine/core/styles/Stack.css';
import '@mantine/core/styles/Tabs.css';
import '@mantine/core/styles/Title.css';
import '@mantine/notifications/styles.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { App } from './app/app';
import { connectSessionHandling, routes } from './app/router';
import { createQueryClient } from './shared/api/query-client';
import { loadPartner } from './shared/lib/partner';

const queryClient = createQueryClient();
const router = createBrowserRouter(routes);
connectSessionHandling(router, queryClient);

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element to render into.');

// One small request before the first render: labels, limits and the alert depend on it
// (index.html has asked for it already, beside the scripts).
void loadPartner().then(() => {
  const root = createRoot(container);
  // As a transition the first render yields to the browser every few milliseconds instead of
  // building a whole form page (about 1,500 elements) in one long task that blocks input.
  startTransition(() => {
    root.render(
      <StrictMode>
        <App router={router} queryClient={queryClient} />
      </StrictMode>,
    );
  });
});
