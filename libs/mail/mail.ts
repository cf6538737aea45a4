/** One mail: plain text, and the link it exists for (also what the log shows without SMTP). */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  link?: string;
}
