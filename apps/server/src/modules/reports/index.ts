// Public face of the reports feature: "a report task finished (succeeded or failed)" for other features
// (notifications: report ready or failed), and the task's shape they receive.
export { onReportTaskFinished, type ReportOutcomeListener, type TaskRow } from './tasks.js';
