import { decomposeQuery, namesNotIn } from '@/lib/memory/decompose-query';
console.log(decomposeQuery('What is the flatmate who lives in Valparaíso working on?'));
console.log(decomposeQuery('住在大理的表哥做什么工作？'));
console.log(decomposeQuery('What did Caroline research?'));
console.log(namesNotIn('User: My flatmate Desmond moved to Valparaíso in March. / Assistant: Lovely, is Desmond enjoying Chile?', 'What is the flatmate who lives in Valparaíso working on?'));
