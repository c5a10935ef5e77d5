package dev.spindle.bench.store;

import dev.spindle.bench.corpus.Corpus;
import dev.spindle.bench.measure.TimedLoad;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.BytesRef;

/**
 * The searches of the get-and-search benchmark: a fixed sample of the body field's terms that are
 * neither rare nor stop words, so that a query reads postings lists of a few blocks to a few
 * hundred kilobytes spread over the whole dictionary, and the top hits of random searches found
 * once, which a fetch phase reads with no clock running for the search. Doc ids are the same
 * through every directory, since all readers open the same commit. The query cache is off, so that
 * every search reads the index.
 */
record Searches(List<Term> terms, List<int[]> fetchHits) {

  /** The hits of a search request, whose stored fields it reads. */
  static final int HITS = 10;

  /** The hits of a fetch phase. */
  static final int FETCH_HITS = 20;

  private static final String FIELD = "body";
  private static final int MAX_CLAUSES = 3;

  /**
   * Samples up to {@code termCount} terms of the largest segment whose document frequency is
   * between 1/20,000 and 1/10 of its documents, then finds the top hits of {@code fetches} random
   * searches. Depends only on the index and the seed.
   */
  static Searches sample(IndexReader reader, int termCount, int fetches, long seed)
      throws IOException {
    LeafReader largest =
        reader.leaves().stream()
            .map(LeafReaderContext::reader)
            .max(Comparator.comparingInt(LeafReader::maxDoc))
            .orElseThrow(() -> new IllegalArgumentException("empty index: " + reader));
    int minDocFreq = Math.max(2, largest.maxDoc() / 20_000);
    int maxDocFreq = largest.maxDoc() / 10;
    // Reservoir sampling: one pass over the dictionary, every eligible term equally likely.
    SplittableRandom random = new SplittableRandom(seed);
    List<Term> sample = new ArrayList<>(termCount);
    long eligible = 0;
    TermsEnum termsEnum = largest.terms(FIELD).iterator();
    for (BytesRef term = termsEnum.next(); term != null; term = termsEnum.next()) {
      if (termsEnum.docFreq() < minDocFreq || termsEnum.docFreq() > maxDocFreq) {
        continue;
      }
      eligible++;
      if (sample.size() < termCount) {
        sample.add(new Term(FIELD, BytesRef.deepCopyOf(term)));
      } else {
        long slot = random.nextLong(eligible);
        if (slot < termCount) {
          sample.set((int) slot, new Term(FIELD, BytesRef.deepCopyOf(term)));
        }
      }
    }
    IndexSearcher searcher = searcher(reader);
    SplittableRandom fetchRandom = new SplittableRandom(seed + 1);
    List<int[]> hits = new ArrayList<>(fetches);
    while (hits.size() < fetches) {
      ScoreDoc[] top = searcher.search(randomQuery(sample, fetchRandom), FETCH_HITS).scoreDocs;
      if (top.length == FETCH_HITS) {
        hits.add(docs(top));
      }
    }
    return new Searches(List.copyOf(sample), List.copyOf(hits));
  }

  /** One search request after the other, from {@code seed}: returns the sum of the hits' ids. */
  TimedLoad.Operation search(IndexReader reader, long seed) throws IOException {
    IndexSearcher searcher = searcher(reader);
    StoredFields storedFields = reader.storedFields();
    SplittableRandom random = new SplittableRandom(seed);
    return () -> {
      Query query = randomQuery(terms, random);
      ScoreDoc[] top = searcher.search(query, HITS).scoreDocs;
      if (top.length == 0) {
        // Every query term was sampled from the index, so every query has hits.
        throw new IllegalStateException("no hit for " + query + " in " + reader);
      }
      return read(storedFields, docs(top));
    };
  }

  /**
   * The fetch phase of the searches found once, from one {@code seed} picks on, wrapping around:
   * prefetching, {@link StoredFields#prefetch} for every hit before the first is read, as Lucene
   * 10's fetch does. Returns the sum of the hits' ids.
   */
  TimedLoad.Operation fetch(IndexReader reader, long seed, boolean prefetch) throws IOException {
    StoredFields storedFields = reader.storedFields();
    int[] next = {(int) Math.floorMod(seed, (long) fetchHits.size())};
    return () -> {
      int[] docs = fetchHits.get(next[0]);
      next[0] = next[0] + 1 == fetchHits.size() ? 0 : next[0] + 1;
      if (prefetch) {
        for (int doc : docs) {
          storedFields.prefetch(doc);
        }
      }
      return read(storedFields, docs);
    };
  }

  /** Reads the stored fields of the hits, checking each holds an id; the sum of their ids. */
  private static long read(StoredFields storedFields, int[] docs) throws IOException {
    long sum = 0;
    for (int doc : docs) {
      if (storedFields.document(doc).get(Corpus.ID_FIELD) == null) {
        throw new IllegalStateException("hit " + doc + " has no id");
      }
      sum += doc;
    }
    return sum;
  }

  private static int[] docs(ScoreDoc[] hits) {
    return Arrays.stream(hits).mapToInt(hit -> hit.doc).toArray();
  }

  /** A disjunction of one to three of the sampled terms, as a user's short query. */
  private static Query randomQuery(List<Term> terms, SplittableRandom random) {
    int clauses = 1 + random.nextInt(MAX_CLAUSES);
    BooleanQuery.Builder query = new BooleanQuery.Builder();
    for (int i = 0; i < clauses; i++) {
      query.add(new TermQuery(terms.get(random.nextInt(terms.size()))), BooleanClause.Occur.SHOULD);
    }
    return query.build();
  }

  private static IndexSearcher searcher(IndexReader reader) {
    IndexSearcher searcher = new IndexSearcher(reader);
    searcher.setQueryCache(null);
    return searcher;
  }
}
