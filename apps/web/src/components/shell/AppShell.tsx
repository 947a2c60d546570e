import Box from '@mui/material/Box';
import Fade from '@mui/material/Fade';
import { useTheme } from '@mui/material/styles';
import Toolbar from '@mui/material/Toolbar';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useRouteMeta } from '../../lib/route-meta.js';
import { UserSettingsProvider } from '../../lib/settings.js';
import { localStore, STORAGE_KEYS } from '../../lib/storage.js';
import { T } from '../../lib/texts.js';
import { SideNav } from './SideNav.js';
import { TopBar } from './TopBar.js';

/** Sets the document title from the current route's registry title. */
export function useDocumentTitle(): void {
  const meta = useRouteMeta();
  useEffect(() => {
    document.title = meta?.title && meta.name !== 'Home' ? `${meta.title} · ${T.product}` : T.product;
  }, [meta]);
}

/** The frame of every /app/ screen: purple top bar, collapsible left navigation, the screen. */
export function AppShell() {
  const theme = useTheme();
  const isDesktop = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const [collapsed, setCollapsed] = useState(() =>
    localStore().get<boolean>(STORAGE_KEYS.navCollapsed, false),
  );
  const [mobileOpen, setMobileOpen] = useState(false);
  const { pathname } = useLocation();
  useDocumentTitle();

  const toggleCollapsed = () =>
    setCollapsed((c) => {
      localStore().set(STORAGE_KEYS.navCollapsed, !c);
      return !c;
    });

  return (
    <UserSettingsProvider>
      <Box sx={{ display: 'flex', minHeight: '100vh', bgcolor: 'background.default' }}>
        {/* the first Tab: past the top bar and the ~20 menu entries, straight to the screen */}
        <Box
          component="a"
          href="#contenido"
          onClick={(e) => {
            // focus the screen without a #fragment in the URL (the URL holds the filters)
            e.preventDefault();
            document.getElementById('contenido')?.focus();
          }}
          sx={{
            position: 'fixed',
            top: 8,
            left: 8,
            zIndex: 'tooltip',
            px: 2,
            py: 1,
            borderRadius: 1,
            bgcolor: 'background.paper',
            color: 'primary.main',
            fontWeight: 600,
            boxShadow: 3,
            transform: 'translateY(-200%)',
            '&:focus': { transform: 'none' },
          }}
        >
          Saltar al contenido
        </Box>
        <TopBar onToggleNav={() => (isDesktop ? toggleCollapsed() : setMobileOpen((o) => !o))} />
        <SideNav
          collapsed={collapsed}
          onToggleCollapsed={toggleCollapsed}
          mobileOpen={mobileOpen}
          onMobileClose={() => setMobileOpen(false)}
          isDesktop={isDesktop}
        />
        <Box
          component="main"
          id="contenido"
          tabIndex={-1}
          sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', outline: 'none' }}
        >
          <Toolbar sx={{ minHeight: 64 }} />
          <Fade key={pathname} in appear timeout={220}>
            <Box sx={{ flex: 1, p: { xs: 2, sm: 3 }, maxWidth: 1600, width: '100%', mx: 'auto' }}>
              <Outlet />
            </Box>
          </Fade>
        </Box>
      </Box>
    </UserSettingsProvider>
  );
}
