import AssessmentRoundedIcon from '@mui/icons-material/AssessmentRounded';
import ChevronLeftRoundedIcon from '@mui/icons-material/ChevronLeftRounded';
import ChevronRightRoundedIcon from '@mui/icons-material/ChevronRightRounded';
import DashboardRoundedIcon from '@mui/icons-material/DashboardRounded';
import ExpandLessRoundedIcon from '@mui/icons-material/ExpandLessRounded';
import ExpandMoreRoundedIcon from '@mui/icons-material/ExpandMoreRounded';
import HomeRoundedIcon from '@mui/icons-material/HomeRounded';
import ImageSearchRoundedIcon from '@mui/icons-material/ImageSearchRounded';
import Inventory2RoundedIcon from '@mui/icons-material/Inventory2Rounded';
import LocalOfferRoundedIcon from '@mui/icons-material/LocalOfferRounded';
import NotificationsRoundedIcon from '@mui/icons-material/NotificationsRounded';
import PriceChangeRoundedIcon from '@mui/icons-material/PriceChangeRounded';
import SettingsInputComponentRoundedIcon from '@mui/icons-material/SettingsInputComponentRounded';
import ViewListRoundedIcon from '@mui/icons-material/ViewListRounded';
import Box from '@mui/material/Box';
import Collapse from '@mui/material/Collapse';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { APP_VERSION } from '@vigia/domain';
import { type ReactElement, useEffect, useMemo, useState } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import { useIsAdmin } from '../../lib/admin.js';
import { useLicense } from '../../lib/license.js';
import { useUserSettings } from '../../lib/settings.js';
import { T } from '../../lib/texts.js';
import {
  isActiveLink,
  type NavEntry,
  type NavGroup,
  type NavIcon,
  type NavLinkItem,
  visibleMenu,
} from './nav-model.js';

export const NAV_WIDTH = 264;
export const NAV_COLLAPSED_WIDTH = 72;

const ICONS: Record<NavIcon, ReactElement> = {
  home: <HomeRoundedIcon />,
  dashboard: <DashboardRoundedIcon />,
  prices: <PriceChangeRoundedIcon />,
  promotions: <LocalOfferRoundedIcon />,
  assortment: <Inventory2RoundedIcon />,
  images: <ImageSearchRoundedIcon />,
  reports: <AssessmentRoundedIcon />,
  productList: <ViewListRoundedIcon />,
  notifications: <NotificationsRoundedIcon />,
  operations: <SettingsInputComponentRoundedIcon />,
};

function LinkItem({
  item,
  collapsed,
  nested,
  active,
  onNavigate,
}: {
  item: NavLinkItem;
  collapsed: boolean;
  nested: boolean;
  active: boolean;
  onNavigate: () => void;
}) {
  const button = (
    <ListItemButton
      component={RouterLink}
      to={item.to}
      selected={active}
      aria-current={active ? 'page' : undefined}
      onClick={onNavigate}
      sx={{
        mb: 0.25,
        minHeight: 40,
        pl: nested && !collapsed ? 6.5 : 1.5,
        justifyContent: collapsed ? 'center' : 'flex-start',
        position: 'relative',
        ...(active && nested && !collapsed
          ? {
              '&::before': {
                content: '""',
                position: 'absolute',
                left: 30,
                top: 10,
                bottom: 10,
                width: 3,
                borderRadius: 2,
                bgcolor: 'secondary.main',
              },
            }
          : {}),
      }}
    >
      {item.icon && (
        <ListItemIcon
          sx={{ minWidth: collapsed ? 0 : 40, color: active ? 'primary.main' : 'text.secondary' }}
        >
          {ICONS[item.icon]}
        </ListItemIcon>
      )}
      {!collapsed && (
        <ListItemText
          primary={item.label}
          slotProps={{ primary: { sx: { fontSize: nested ? 13.5 : 14, fontWeight: active ? 700 : 500 } } }}
        />
      )}
    </ListItemButton>
  );
  return (
    <li>
      {collapsed ? (
        <Tooltip title={item.label} placement="right">
          {button}
        </Tooltip>
      ) : (
        button
      )}
    </li>
  );
}

function GroupItem({
  group,
  collapsed,
  open,
  active,
  onToggle,
  children,
}: {
  group: NavGroup;
  collapsed: boolean;
  open: boolean;
  active: boolean;
  onToggle: () => void;
  children: ReactElement[];
}) {
  const header = (
    <ListItemButton
      onClick={onToggle}
      aria-expanded={open}
      sx={{ mb: 0.25, minHeight: 40, px: 1.5, justifyContent: collapsed ? 'center' : 'flex-start' }}
    >
      <ListItemIcon sx={{ minWidth: collapsed ? 0 : 40, color: active ? 'primary.main' : 'text.secondary' }}>
        {ICONS[group.icon]}
      </ListItemIcon>
      {!collapsed && (
        <>
          <ListItemText
            primary={group.label}
            slotProps={{
              primary: {
                sx: {
                  fontSize: 14,
                  fontWeight: active ? 700 : 600,
                  color: active ? 'primary.main' : undefined,
                },
              },
            }}
          />
          {open ? <ExpandLessRoundedIcon fontSize="small" /> : <ExpandMoreRoundedIcon fontSize="small" />}
        </>
      )}
    </ListItemButton>
  );
  return (
    <li>
      {collapsed ? (
        <Tooltip title={group.label} placement="right">
          {header}
        </Tooltip>
      ) : (
        header
      )}
      <Collapse in={open && !collapsed} timeout="auto" unmountOnExit>
        <List disablePadding aria-label={group.label}>
          {children}
        </List>
      </Collapse>
    </li>
  );
}

/** The left navigation: module-gated groups, collapsible to icons, the current route marked. */
export function SideNav({
  collapsed,
  onToggleCollapsed,
  mobileOpen,
  onMobileClose,
  isDesktop,
}: {
  collapsed: boolean;
  onToggleCollapsed: () => void;
  mobileOpen: boolean;
  onMobileClose: () => void;
  isDesktop: boolean;
}) {
  const { modules, appConfig } = useLicense();
  const { pivotId } = useUserSettings();
  const isAdmin = useIsAdmin();
  const { pathname, search } = useLocation();
  const menu = useMemo<NavEntry[]>(
    () => visibleMenu(modules, { pivotId, appConfig, isAdmin }),
    [modules, pivotId, appConfig, isAdmin],
  );
  const mini = isDesktop && collapsed;

  const activeGroup = useMemo(
    () =>
      menu.find(
        (e): e is NavGroup => e.kind === 'group' && e.items.some((i) => isActiveLink(i, pathname, search)),
      )?.id ?? null,
    [menu, pathname, search],
  );
  const [openGroups, setOpenGroups] = useState<Record<string, boolean>>({});
  useEffect(() => {
    if (activeGroup) setOpenGroups((g) => ({ ...g, [activeGroup]: true }));
  }, [activeGroup]);

  const close = () => {
    if (!isDesktop) onMobileClose();
  };

  const content = (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <Toolbar sx={{ minHeight: 64 }} />
      <Box
        component="nav"
        aria-label="Navegación principal"
        sx={{ flex: 1, overflowY: 'auto', overflowX: 'hidden', px: 1.25, py: 1.5 }}
      >
        <List disablePadding>
          {menu.map((entry) =>
            entry.kind === 'link' ? (
              <LinkItem
                key={entry.to}
                item={entry}
                collapsed={mini}
                nested={false}
                active={isActiveLink(entry, pathname, search)}
                onNavigate={close}
              />
            ) : (
              <GroupItem
                key={entry.id}
                group={entry}
                collapsed={mini}
                open={!!openGroups[entry.id]}
                active={activeGroup === entry.id}
                onToggle={() => {
                  if (mini) {
                    onToggleCollapsed();
                    setOpenGroups((g) => ({ ...g, [entry.id]: true }));
                  } else setOpenGroups((g) => ({ ...g, [entry.id]: !g[entry.id] }));
                }}
              >
                {entry.items.map((item) => (
                  <LinkItem
                    key={item.to}
                    item={item}
                    collapsed={mini}
                    nested
                    active={isActiveLink(item, pathname, search)}
                    onNavigate={close}
                  />
                ))}
              </GroupItem>
            ),
          )}
        </List>
      </Box>
      {/* a landmark of its own: every piece of text sits in one (axe "region") */}
      <Box
        component="footer"
        sx={{
          borderTop: 1,
          borderColor: 'divider',
          px: 1.5,
          py: 1,
          display: 'flex',
          alignItems: 'center',
          justifyContent: mini ? 'center' : 'space-between',
        }}
      >
        {!mini && (
          <Typography variant="caption" color="text.secondary">
            {T.version(APP_VERSION)}
          </Typography>
        )}
        {isDesktop && (
          <Tooltip title={collapsed ? T.expandMenu : T.collapseMenu} placement="right">
            <IconButton
              size="small"
              onClick={onToggleCollapsed}
              aria-label={collapsed ? T.expandMenu : T.collapseMenu}
            >
              {collapsed ? <ChevronRightRoundedIcon /> : <ChevronLeftRoundedIcon />}
            </IconButton>
          </Tooltip>
        )}
      </Box>
    </Box>
  );

  const width = mini ? NAV_COLLAPSED_WIDTH : NAV_WIDTH;
  if (!isDesktop) {
    return (
      <Drawer
        variant="temporary"
        open={mobileOpen}
        onClose={onMobileClose}
        ModalProps={{ keepMounted: true }}
        slotProps={{ paper: { sx: { width: NAV_WIDTH } } }}
      >
        {content}
      </Drawer>
    );
  }
  return (
    <Drawer
      variant="permanent"
      sx={{
        width,
        flexShrink: 0,
        transition: (t) => t.transitions.create('width', { duration: t.transitions.duration.shorter }),
        '& .MuiDrawer-paper': {
          width,
          overflowX: 'hidden',
          boxSizing: 'border-box',
          borderRight: 1,
          borderColor: 'divider',
          bgcolor: '#fff',
          transition: (t) => t.transitions.create('width', { duration: t.transitions.duration.shorter }),
        },
      }}
    >
      {content}
    </Drawer>
  );
}
