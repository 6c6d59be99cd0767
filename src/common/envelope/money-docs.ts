import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';

/** How every money amount of the interface is described (issue 29: an agent sent 4 meaning ¥4). */
export const FEN = 'Integer fen (1/100 yuan, CNY): 350 = ¥3.50.';

/** A money amount: an integer number of fen, described as such. */
export const Fen = (o: ApiPropertyOptions = {}) => ApiProperty({ type: 'integer', ...o, description: [FEN, o.description].filter(Boolean).join(' ') } as ApiPropertyOptions);
