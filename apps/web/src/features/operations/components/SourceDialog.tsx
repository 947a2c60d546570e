import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { FEED_FORMATS, type FeedFormat, type FeedSource } from '@vigia/domain';
import { type FormEvent, useState } from 'react';
import { notify } from '../../../lib/notifier.js';
import { createCrawlSource, createSource, opsKeys, uploadSourceFile, useSellers } from '../api/operations.js';
import { FORMAT_LABELS, OT } from '../lib/texts.js';

/** Lines of a textarea: trimmed, without blanks and repeats. */
const lines = (text: string) => [
  ...new Set(
    text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean),
  ),
];

/**
 * Adds a source to a seller: a feed (an uploaded file or a URL; on success the mapping dialog may follow)
 * or a crawl of product pages (URLs pasted one per line, sitemaps, an optional URL pattern).
 */
export function SourceDialog({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (s: FeedSource) => void;
}) {
  const qc = useQueryClient();
  const sellers = useSellers();
  const [sellerId, setSellerId] = useState<number | ''>('');
  const [name, setName] = useState('');
  const [kind, setKind] = useState<'feed' | 'crawl'>('feed');
  const [urlsText, setUrlsText] = useState('');
  const [sitemapsText, setSitemapsText] = useState('');
  const [pattern, setPattern] = useState('');
  const [origin, setOrigin] = useState<'upload' | 'url'>('upload');
  const [url, setUrl] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [format, setFormat] = useState<FeedFormat>('csv');
  const [mode, setMode] = useState<'full' | 'delta'>('full');
  const [schedule, setSchedule] = useState('');
  const [busy, setBusy] = useState(false);
  const urls = lines(urlsText);
  const sitemaps = lines(sitemapsText);
  const ready =
    sellerId !== '' &&
    name.trim() &&
    (kind === 'crawl' ? urls.length + sitemaps.length > 0 : origin === 'url' ? !!url : !!file);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (sellerId === '') return;
    setBusy(true);
    try {
      if (kind === 'crawl') {
        const s = await createCrawlSource({
          seller_id: sellerId,
          name,
          urls,
          sitemaps,
          pattern: pattern.trim() || null,
          schedule: schedule.trim() || null,
        });
        notify(OT.sourceSaved, 'success');
        await qc.invalidateQueries({ queryKey: opsKeys.all });
        onCreated(s);
        return;
      }
      let s = await createSource({
        seller_id: sellerId,
        name,
        origin,
        url: origin === 'url' ? url : null,
        format,
        mode,
        schedule: schedule.trim() || null,
      });
      if (origin === 'upload' && file) {
        s = await uploadSourceFile(s.id, file);
        notify(OT.uploaded, 'success');
      } else notify(OT.sourceSaved, 'success');
      await qc.invalidateQueries({ queryKey: opsKeys.all });
      onCreated(s);
    } catch {
      // said by the API client
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby="add-source-title" fullWidth maxWidth="sm">
      <form onSubmit={(e) => void submit(e)}>
        <DialogTitle id="add-source-title">{OT.addSource}</DialogTitle>
        <DialogContent>
          <Stack gap={2} sx={{ pt: 1 }}>
            <TextField
              select
              id="source-seller"
              label={OT.seller}
              value={sellerId}
              onChange={(e) => setSellerId(Number(e.target.value))}
              required
            >
              {(sellers.data?.items ?? []).map((s) => (
                <MenuItem key={s.id} value={s.id}>
                  {s.name} ({s.currency})
                </MenuItem>
              ))}
            </TextField>
            <TextField
              id="source-name"
              label={OT.sourceName}
              value={name}
              onChange={(e) => setName(e.target.value)}
              required
            />
            <TextField
              select
              id="source-kind"
              label={OT.kind}
              value={kind}
              onChange={(e) => setKind(e.target.value as 'feed' | 'crawl')}
            >
              <MenuItem value="feed">{OT.kindFeed}</MenuItem>
              <MenuItem value="crawl">{OT.kindCrawl}</MenuItem>
            </TextField>
            {kind === 'crawl' ? (
              <>
                <TextField
                  id="source-urls"
                  label={OT.crawlUrls}
                  value={urlsText}
                  onChange={(e) => setUrlsText(e.target.value)}
                  multiline
                  minRows={4}
                  maxRows={12}
                  helperText={OT.crawlUrlsHelp(urls.length)}
                  slotProps={{ htmlInput: { spellCheck: false } }}
                />
                <Button variant="outlined" component="label" sx={{ alignSelf: 'flex-start' }}>
                  {OT.crawlUrlsFile}
                  <input
                    hidden
                    type="file"
                    aria-label={OT.crawlUrlsFile}
                    accept=".txt,.csv,text/plain"
                    onChange={(e) => {
                      const f = e.target.files?.[0];
                      if (f)
                        void f
                          .text()
                          .then((t) => setUrlsText((prev) => (prev.trim() ? `${prev.trimEnd()}\n${t}` : t)));
                    }}
                  />
                </Button>
                <TextField
                  id="source-sitemaps"
                  label={OT.crawlSitemaps}
                  value={sitemapsText}
                  onChange={(e) => setSitemapsText(e.target.value)}
                  multiline
                  minRows={2}
                  maxRows={6}
                  helperText={urls.length + sitemaps.length === 0 ? OT.crawlNeedsUrl : ' '}
                />
                <TextField
                  id="source-pattern"
                  label={OT.crawlPattern}
                  helperText={OT.crawlPatternHelp}
                  value={pattern}
                  onChange={(e) => setPattern(e.target.value)}
                />
              </>
            ) : (
              <>
                <TextField
                  select
                  id="source-origin"
                  label={OT.origin}
                  value={origin}
                  onChange={(e) => setOrigin(e.target.value as 'upload' | 'url')}
                >
                  <MenuItem value="upload">{OT.originUpload}</MenuItem>
                  <MenuItem value="url">{OT.originUrl}</MenuItem>
                </TextField>
                {origin === 'url' ? (
                  <TextField
                    id="source-url"
                    label={OT.url}
                    value={url}
                    onChange={(e) => setUrl(e.target.value)}
                    type="url"
                    required
                  />
                ) : (
                  <Stack direction="row" alignItems="center" gap={2}>
                    <Button variant="outlined" component="label">
                      {OT.chooseFile}
                      <input
                        hidden
                        type="file"
                        aria-label={OT.file}
                        accept=".csv,.tsv,.txt,.xml"
                        onChange={(e) => setFile(e.target.files?.[0] ?? null)}
                      />
                    </Button>
                    <Typography variant="body2" color="text.secondary">
                      {file?.name ?? ''}
                    </Typography>
                  </Stack>
                )}
                <TextField
                  select
                  id="source-format"
                  label={OT.format}
                  value={format}
                  onChange={(e) => setFormat(e.target.value as FeedFormat)}
                >
                  {FEED_FORMATS.map((f) => (
                    <MenuItem key={f} value={f}>
                      {FORMAT_LABELS[f]}
                    </MenuItem>
                  ))}
                </TextField>
                <TextField
                  select
                  id="source-mode"
                  label={OT.mode}
                  value={mode}
                  onChange={(e) => setMode(e.target.value as 'full' | 'delta')}
                >
                  <MenuItem value="full">{OT.modeFull}</MenuItem>
                  <MenuItem value="delta">{OT.modeDelta}</MenuItem>
                </TextField>
              </>
            )}
            <TextField
              id="source-schedule"
              label={OT.schedule}
              helperText={OT.scheduleHelp}
              value={schedule}
              onChange={(e) => setSchedule(e.target.value)}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{OT.cancel}</Button>
          <Button type="submit" variant="contained" disabled={busy || !ready}>
            {OT.save}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
