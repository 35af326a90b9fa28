"""False and misleading sentences on two apps in no data set (probe37: apolloconfig/apollo, a Spring Boot
configuration center, and muety/wakapi, a Go chi coding-statistics server):

- "**Not found:** nothing in this index mentions “only”" of an index where 28 files say it: the question word's
  stem (`onli`) was stemmed again on its way to the index (`on`, a stopword no row holds).
"""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.sources.missing import missing_words
from codeqa.records import Chunk
from codeqa.searchfiles.lexical import LexicalIndex
from codeqa.tokens import code_tokens

# apolloconfig/apollo apollo-configservice/.../service/config/DefaultConfigService.java, lines 30-45
DEFAULT_CONFIG_SERVICE = """/**
 * config service with no cache
 *
 * @author Jason Song(song_s@ctrip.com)
 */
public class DefaultConfigService extends AbstractConfigService {

  private final ReleaseService releaseService;
  private final GrayReleaseRulesHolder grayReleaseRulesHolder;

  public DefaultConfigService(final ReleaseService releaseService,
      final GrayReleaseRulesHolder grayReleaseRulesHolder) {
    super(grayReleaseRulesHolder);
    this.releaseService = releaseService;
    this.grayReleaseRulesHolder = grayReleaseRulesHolder;
  }
"""

# apolloconfig/apollo apollo-common/.../common/condition/ConditionalOnProfile.java, lines 27-36
ON_PROFILE = """/**
 * {@link Conditional} that only matches when the specified profiles are active.
 *
 * @author Jason Song(song_s@ctrip.com)
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Conditional(OnProfileCondition.class)
public @interface ConditionalOnProfile {
"""

ROOT = "apollo-configservice/src/main/java/com/ctrip/framework/apollo/configservice/service/config"


def _only_question_chunks() -> tuple[Chunk, Chunk]:
    shown = Chunk(f"{ROOT}/DefaultConfigService.java", "java", 30, 45, DEFAULT_CONFIG_SERVICE, "DefaultConfigService",
                  "class", "service")  # fmt: skip
    other = Chunk("apollo-common/src/main/java/com/ctrip/framework/apollo/common/condition/ConditionalOnProfile.java",
                  "java", 27, 36, ON_PROFILE, "ConditionalOnProfile", "class", "other")  # fmt: skip
    return shown, other


def test_a_word_the_index_holds_is_not_said_missing_though_its_stem_stemmed_again_is_a_stopword() -> None:
    shown, other = _only_question_chunks()
    question = "How does a gray release send new configuration to only some instances?"
    assert code_tokens(code_tokens("only")[0]) != code_tokens("only")  # the stem is not a fixed point
    in_memory = AnswerContext.from_chunks([shown, other], [])
    assert "only" not in missing_words(question, [shown], in_memory)
    lexical = LexicalIndex.build(code_tokens(chunk.text) for chunk in in_memory.chunks(range(len(in_memory.table))))
    in_memory.lexical = lexical  # the index's path: BM25 over the same tokens
    assert "only" not in missing_words(question, [shown], in_memory)
    assert "instances" in missing_words(question, [shown], in_memory)  # a word no row holds is still said missing
