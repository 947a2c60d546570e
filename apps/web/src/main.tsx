import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Providers } from './app/providers.js';
import { createAppRouter } from './app/router.js';
import { startExporter } from './lib/exporter.js';
import { trackNotifications } from './lib/notification-count.js';
import { getToken, isLoggedIn } from './lib/session.js';

const router = createAppRouter();

// The exporter connection opens 1 s after start when the user is already logged in (seed 000 §4).
startExporter(() => (isLoggedIn() ? getToken() : null));
trackNotifications();

const root = document.getElementById('root');
if (!root) throw new Error('#root no encontrado');
createRoot(root).render(
  <StrictMode>
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
