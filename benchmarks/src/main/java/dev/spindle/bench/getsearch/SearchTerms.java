package dev.spindle.bench.getsearch;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.BytesRef;

/**
 * The words that the search workload queries: a fixed sample of the body field's terms that are
 * neither rare nor stop words, so that a query reads postings lists of a few blocks to a few
 * hundred kilobytes, spread over the whole terms dictionary.
 *
 * <p>Immutable; {@link #randomQuery} draws from a random the caller owns, so threads share one.
 */
final class SearchTerms {

  static final String FIELD = "body";
  private static final int MAX_CLAUSES = 3;

  private final List<Term> terms;

  private SearchTerms(List<Term> terms) {
    this.terms = List.copyOf(terms);
  }

  /**
   * Samples up to {@code count} terms of the largest segment whose document frequency is between
   * 1/20,000 and 1/10 of its documents. The sample depends only on the index and the seed.
   */
  static SearchTerms sample(IndexReader reader, int count, long seed) throws IOException {
    LeafReader largest =
        reader.leaves().stream()
            .map(LeafReaderContext::reader)
            .max(Comparator.comparingInt(LeafReader::maxDoc))
            .orElseThrow(() -> new IllegalArgumentException("empty index: " + reader));
    Terms field = largest.terms(FIELD);
    if (field == null) {
      throw new IllegalArgumentException("no field " + FIELD + " in " + largest);
    }
    int minDocFreq = Math.max(2, largest.maxDoc() / 20_000);
    int maxDocFreq = largest.maxDoc() / 10;
    // Reservoir sampling: one pass over the dictionary, every eligible term equally likely.
    SplittableRandom random = new SplittableRandom(seed);
    List<Term> sample = new ArrayList<>(count);
    long eligible = 0;
    TermsEnum termsEnum = field.iterator();
    for (BytesRef term = termsEnum.next(); term != null; term = termsEnum.next()) {
      int docFreq = termsEnum.docFreq();
      if (docFreq < minDocFreq || docFreq > maxDocFreq) {
        continue;
      }
      eligible++;
      if (sample.size() < count) {
        sample.add(new Term(FIELD, BytesRef.deepCopyOf(term)));
      } else {
        long slot = random.nextLong(eligible);
        if (slot < count) {
          sample.set((int) slot, new Term(FIELD, BytesRef.deepCopyOf(term)));
        }
      }
    }
    if (sample.isEmpty()) {
      throw new IllegalArgumentException("no term of " + FIELD + " fits the sample in " + largest);
    }
    return new SearchTerms(sample);
  }

  /** A disjunction of one to three of the sampled terms, as a user's short query. */
  Query randomQuery(SplittableRandom random) {
    int clauses = 1 + random.nextInt(MAX_CLAUSES);
    BooleanQuery.Builder query = new BooleanQuery.Builder();
    for (int i = 0; i < clauses; i++) {
      query.add(new TermQuery(terms.get(random.nextInt(terms.size()))), BooleanClause.Occur.SHOULD);
    }
    return query.build();
  }

  int size() {
    return terms.size();
  }
}
