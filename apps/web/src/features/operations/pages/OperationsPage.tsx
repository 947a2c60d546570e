import { PageHeader } from '../../../components/page/PageHeader.js';
import { useImportProgress } from '../api/operations.js';
import { ApiKeysPanel } from '../components/ApiKeysPanel.js';
import { RunsPanel } from '../components/RunsPanel.js';
import { SellersPanel } from '../components/SellersPanel.js';
import { SourcesPanel } from '../components/SourcesPanel.js';
import { ZonePanel } from '../components/ZonePanel.js';
import { OT } from '../lib/texts.js';

/** /app/operations (administrators): sellers and freshness, feed sources, runs, API keys, the market zone. */
export default function OperationsPage() {
  const progress = useImportProgress();
  return (
    <>
      <PageHeader description={OT.description} />
      <SellersPanel />
      <SourcesPanel progress={progress} />
      <RunsPanel progress={progress} />
      <ApiKeysPanel />
      <ZonePanel />
    </>
  );
}
