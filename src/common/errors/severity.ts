/**
 * How bad a message is (spec "Envelope and messages"). Its own file because both the envelope and the error codes
 * need it, and the error codes would otherwise import the envelope that imports them (through the message codes).
 */
export type Severity = 'requires_buyer_review' | 'recoverable' | 'unrecoverable' | 'warning' | 'info';
