import { useQueryClient } from '@tanstack/react-query';
import { PageHeader } from '../../../components/page/PageHeader.js';
import { useSession } from '../../../lib/session.js';
import { reportKeys } from '../api/reports.js';
import { RequestForm } from '../components/RequestForm.js';
import { SubscriptionsPanel } from '../components/SubscriptionsPanel.js';
import { TasksTable } from '../components/TasksTable.js';
import { RT } from '../lib/texts.js';

/** /app/reports: request a report, follow it live and download it; e-mail subscriptions. */
export default function ReportsPage() {
  const qc = useQueryClient();
  const { user } = useSession();
  return (
    <>
      <PageHeader description={RT.description} />
      <RequestForm onRequested={() => void qc.invalidateQueries({ queryKey: reportKeys.tasks() })} />
      <TasksTable />
      <SubscriptionsPanel userEmail={user?.email ?? ''} />
    </>
  );
}
