import { configStoreContract, oauthSessionStoreContract, promptHistoryStoreContract, sessionStoreContract } from '../../../test/support/store-contract-suites.ts'
import { memoryConfigStore, memoryOAuthSessionStore, memoryPromptHistoryStore, memorySessionStore } from './memory-stores.ts'

configStoreContract('memoryConfigStore', () => memoryConfigStore())
promptHistoryStoreContract('memoryPromptHistoryStore', (limits) => memoryPromptHistoryStore(limits))
sessionStoreContract('memorySessionStore', (now) => memorySessionStore({ now }))
oauthSessionStoreContract('memoryOAuthSessionStore', () => memoryOAuthSessionStore())
