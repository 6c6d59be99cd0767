/**
 * The validator library's failure texts → sentences the service writes (issue 29: an agent read
 * "quantity must not be less than 1" next to REST paths). Pure. Each rule reads the library's default text for its
 * numbers or values; a text a DTO wrote itself (a `message` option) does not match and is kept as it is.
 */
type Phrase = (m: RegExpMatchArray) => string;

const RULES: Record<string, [RegExp, Phrase]> = {
  isDefined: [/should not be null or undefined$/, () => 'is required'],
  isNotEmpty: [/should not be empty$/, () => 'must not be empty'],
  isString: [/must be a string$/, () => 'must be text (a JSON string)'],
  isInt: [/must be an integer number$/, () => 'must be a whole number (a JSON integer)'],
  isBoolean: [/must be a boolean value$/, () => 'must be true or false (a JSON boolean)'],
  isObject: [/must be an object$/, () => 'must be a JSON object'],
  isArray: [/must be an array$/, () => 'must be a list (a JSON array)'],
  min: [/must not be less than (-?[\d.]+)$/, (m) => `must be at least ${m[1]}`],
  max: [/must not be greater than (-?[\d.]+)$/, (m) => `must be at most ${m[1]}`],
  minLength: [/must be longer than or equal to (\d+) characters$/, (m) => `must be at least ${m[1]} character${m[1] === '1' ? '' : 's'} long`],
  maxLength: [/must be shorter than or equal to (\d+) characters$/, (m) => `must be at most ${m[1]} characters long`],
  arrayMinSize: [/must contain at least (\d+) elements?$/, (m) => `must hold at least ${m[1]} entr${m[1] === '1' ? 'y' : 'ies'}`],
  arrayMaxSize: [/must contain no more than (\d+) elements?$/, (m) => `must hold at most ${m[1]} entries`],
  isIn: [/must be one of the following values: (.*)$/, (m) => `must be one of: ${m[1]}`],
  matches: [/must match (.*) regular expression$/, (m) => `does not have the expected form (${m[1]})`],
  nestedValidation: [/must be either object or array$/, () => 'must be a JSON object or list'],
};

/** One sentence for the failed constraints of one field: `quantity must be at least 1.` */
export function validationSentence(field: string, constraints: Record<string, string>): string {
  const ours: string[] = [];
  const kept: string[] = [];
  for (const [name, text] of Object.entries(constraints)) {
    const rule = RULES[name];
    const m = rule ? text.match(rule[0]) : null;
    if (m && rule) ours.push(rule[1](m));
    else kept.push(text);
  }
  const parts = [...(ours.length ? [`${field} ${ours.join(' and ')}`] : []), ...kept];
  return `${parts.join('; ')}.`.replace(/\.\.$/, '.');
}
