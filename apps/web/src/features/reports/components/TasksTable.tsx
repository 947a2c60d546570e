import DescriptionOutlinedIcon from '@mui/icons-material/DescriptionOutlined';
import DownloadRoundedIcon from '@mui/icons-material/DownloadRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import {
  formatDate,
  formatDateTime,
  formatNumber,
  REPORT_FORMAT_LABELS,
  REPORT_TYPE_LABELS,
  type ReportTask,
} from '@vigia/domain';
import { useState } from 'react';
import { ScrollTable } from '../../../components/data/ScrollTable.js';
import { notify } from '../../../lib/notifier.js';
import { downloadReport, useReportTasks } from '../api/reports.js';
import { formatBytes, RT } from '../lib/texts.js';
import { LoadState } from './parts.js';

const STATUS_COLOR = { queued: 'default', running: 'info', succeeded: 'success', failed: 'error' } as const;

function StateCell({ task }: { task: ReportTask }) {
  const pct = Math.round(task.progress * 100);
  return (
    <Box sx={{ minWidth: 180 }}>
      <Chip
        size="small"
        label={RT.status[task.status]}
        color={STATUS_COLOR[task.status]}
        variant="outlined"
      />
      {(task.status === 'running' || task.status === 'queued') && (
        <Box sx={{ mt: 1 }}>
          {/* determinate even while queued, on a grey track: at 0 % the bar is empty (an animated
              indeterminate bar looked ~85 % full next to "0 %"; issue 31 item 12) */}
          <LinearProgress
            variant="determinate"
            value={pct}
            aria-label={`${REPORT_TYPE_LABELS[task.report_type]}: ${formatNumber(pct)} %`}
            data-testid="report-progress"
            sx={{ bgcolor: 'grey.300', '& .MuiLinearProgress-bar': { transition: 'transform .4s linear' } }}
          />
          <Typography variant="caption" color="text.secondary">
            {formatNumber(pct)} % · {RT.rows(task.rows_done, task.rows_total)}
          </Typography>
        </Box>
      )}
      {task.status === 'succeeded' && (
        <Typography variant="caption" color="text.secondary" component="div">
          {RT.rows(task.rows_done, null)}
        </Typography>
      )}
      {task.status === 'failed' && task.error && (
        <Typography variant="caption" color="error" component="div" sx={{ maxWidth: 320 }}>
          {task.error}
        </Typography>
      )}
    </Box>
  );
}

/** The user's reports: type, range, format, size, state with live progress, when, download. */
export function TasksTable() {
  const tasks = useReportTasks();
  const [downloading, setDownloading] = useState<string | null>(null);

  const download = async (t: ReportTask) => {
    if (!t.gs_url) return;
    setDownloading(t.id);
    try {
      await downloadReport(t.gs_url);
    } catch {
      notify(RT.downloadFailed);
    } finally {
      setDownloading(null);
    }
  };

  const state = LoadState({
    pending: tasks.isPending,
    error: tasks.isError,
    empty: !tasks.data?.items.length,
    loadingText: RT.loadingTasks,
    errorText: RT.tasksError,
    onRetry: () => void tasks.refetch(),
    emptyIcon: <DescriptionOutlinedIcon />,
    emptyTitle: RT.emptyTasks,
    emptyBody: RT.emptyTasksBody,
  });
  const body = state ?? (
    <ScrollTable label={RT.tasksTitle} outlined>
      <Table size="small" aria-label={RT.tasksTitle}>
        <TableHead>
          <TableRow>
            <TableCell>{RT.col.type}</TableCell>
            <TableCell>{RT.col.range}</TableCell>
            <TableCell>{RT.col.format}</TableCell>
            <TableCell align="right">{RT.col.size}</TableCell>
            <TableCell>{RT.col.state}</TableCell>
            <TableCell>{RT.col.when}</TableCell>
            <TableCell align="right">{RT.col.actions}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {(tasks.data?.items ?? []).map((t) => (
            <TableRow key={t.id} data-testid="report-task" data-status={t.status}>
              <TableCell>
                {REPORT_TYPE_LABELS[t.report_type]}
                {t.scheduled && (
                  <Typography variant="caption" color="text.secondary" component="div">
                    {RT.scheduled}
                  </Typography>
                )}
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                {formatDate(t.from_date)} – {formatDate(t.to_date)}
              </TableCell>
              <TableCell>{REPORT_FORMAT_LABELS[t.format]}</TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {formatBytes(t.size_bytes)}
              </TableCell>
              <TableCell>
                <StateCell task={t} />
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(t.created_at)}</TableCell>
              <TableCell align="right">
                {t.status === 'succeeded' &&
                  (t.gs_url ? (
                    <Button
                      size="small"
                      startIcon={<DownloadRoundedIcon />}
                      onClick={() => void download(t)}
                      disabled={downloading === t.id}
                      aria-label={`${RT.download} ${REPORT_TYPE_LABELS[t.report_type]} ${formatDate(t.from_date)} – ${formatDate(t.to_date)}`}
                    >
                      {RT.download}
                    </Button>
                  ) : (
                    <Typography variant="caption" color="text.secondary">
                      {RT.expired}
                    </Typography>
                  ))}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </ScrollTable>
  );

  return (
    <Box component="section" aria-labelledby="report-tasks-title" sx={{ mb: 4 }}>
      <Typography id="report-tasks-title" variant="h6" component="h2" sx={{ mb: 1.5 }}>
        {RT.tasksTitle}
      </Typography>
      {body}
    </Box>
  );
}
