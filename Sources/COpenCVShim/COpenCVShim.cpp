#include "COpenCVShim.h"

#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>
#include <opencv2/features2d.hpp>
#include <opencv2/flann.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

static thread_local std::string last_error;

// Parallelism comes from photocurate's own tasks, one image per task: OpenCV's pool would oversubscribe.
static const int single_threaded = (cv::setNumThreads(0), 0);

const char *pc_cv_last_error(void) { return last_error.c_str(); }

// Every entry point: C++ exceptions stop here and become -1 plus a message.
template <typename F> static int guarded(F body) {
    try {
        last_error.clear();
        return body();
    } catch (const cv::Exception &e) {
        last_error = e.what();
    } catch (const std::exception &e) {
        last_error = e.what();
    } catch (...) {
        last_error = "unknown C++ exception";
    }
    return -1;
}

int pc_cv_orb(const uint8_t *gray, int width, int height, int max_features, int fast_threshold,
              float *keypoints, uint8_t *descriptors) {
    return guarded([&] {
        cv::Mat image(height, width, CV_8UC1, const_cast<uint8_t *>(gray));
        auto orb = cv::ORB::create(max_features, 1.2f, 8, 15, 0, 2, cv::ORB::HARRIS_SCORE, 31, fast_threshold);
        std::vector<cv::KeyPoint> kps;
        cv::Mat desc;
        orb->detectAndCompute(image, cv::noArray(), kps, desc);
        // Strongest first, ties by position, so the same image always gives the same list.
        std::vector<int> order(kps.size());
        for (size_t i = 0; i < order.size(); i++) order[i] = (int)i;
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
            if (kps[a].response != kps[b].response) return kps[a].response > kps[b].response;
            if (kps[a].pt.y != kps[b].pt.y) return kps[a].pt.y < kps[b].pt.y;
            return kps[a].pt.x < kps[b].pt.x;
        });
        int n = std::min((int)order.size(), max_features);
        for (int j = 0; j < n; j++) {
            const cv::KeyPoint &k = kps[order[j]];
            keypoints[j * 4 + 0] = k.pt.x;
            keypoints[j * 4 + 1] = k.pt.y;
            keypoints[j * 4 + 2] = k.size;
            keypoints[j * 4 + 3] = k.angle;
            std::memcpy(descriptors + j * PC_CV_DESCRIPTOR_BYTES, desc.ptr<uint8_t>(order[j]), PC_CV_DESCRIPTOR_BYTES);
        }
        return n;
    });
}

struct pc_cv_lsh {
    cv::Mat descriptors;  // owned copy: the index points into it
    std::vector<int32_t> owners;
    cv::flann::Index index;
};

pc_cv_lsh *pc_cv_lsh_build(const uint8_t *descriptors, const int32_t *owners, int count,
                           int tables, int key_bits, int probe_level) {
    pc_cv_lsh *out = nullptr;
    int rc = guarded([&] {
        if (count <= 0) throw std::runtime_error("no descriptors to index");
        auto *lsh = new pc_cv_lsh();
        lsh->descriptors = cv::Mat(count, PC_CV_DESCRIPTOR_BYTES, CV_8UC1, const_cast<uint8_t *>(descriptors)).clone();
        lsh->owners.assign(owners, owners + count);
        try {
            lsh->index.build(lsh->descriptors, cv::flann::LshIndexParams(tables, key_bits, probe_level),
                             cvflann::FLANN_DIST_HAMMING);
        } catch (...) {
            delete lsh;
            throw;
        }
        out = lsh;
        return 0;
    });
    return rc == 0 ? out : nullptr;
}

void pc_cv_lsh_free(pc_cv_lsh *index) { delete index; }

int pc_cv_lsh_vote(const pc_cv_lsh *index, const uint8_t *query, int count, float ratio,
                   int32_t *votes, int images) {
    return guarded([&] {
        if (count <= 0) return 0;
        cv::Mat q(count, PC_CV_DESCRIPTOR_BYTES, CV_8UC1, const_cast<uint8_t *>(query));
        cv::Mat indices, dists;
        // flann's search is logically const; its API is not.
        const_cast<cv::flann::Index &>(index->index).knnSearch(q, indices, dists, 2, cv::flann::SearchParams());
        int cast = 0;
        for (int i = 0; i < count; i++) {
            int a = indices.at<int>(i, 0), b = indices.at<int>(i, 1);
            if (a < 0 || a >= (int)index->owners.size()) continue;
            int owner = index->owners[a];
            bool distinct = true;
            if (b >= 0 && b < (int)index->owners.size() && index->owners[b] != owner) {
                float da = (float)dists.at<int>(i, 0), db = (float)dists.at<int>(i, 1);
                distinct = da < ratio * db;
            }
            if (distinct && owner >= 0 && owner < images) { votes[owner] += 1; cast++; }
        }
        return cast;
    });
}

int pc_cv_verify(const float *query_kp, const uint8_t *query_desc, int query_count,
                 const float *ref_kp, const uint8_t *ref_desc, int ref_count,
                 float ratio, float ransac_px, double *h, int *matches) {
    return guarded([&] {
        *matches = 0;
        if (query_count < 2 || ref_count < 2) return 0;
        cv::Mat qd(query_count, PC_CV_DESCRIPTOR_BYTES, CV_8UC1, const_cast<uint8_t *>(query_desc));
        cv::Mat rd(ref_count, PC_CV_DESCRIPTOR_BYTES, CV_8UC1, const_cast<uint8_t *>(ref_desc));
        cv::BFMatcher matcher(cv::NORM_HAMMING);
        std::vector<std::vector<cv::DMatch>> knn;
        matcher.knnMatch(rd, qd, knn, 2);
        std::vector<cv::Point2f> from, to;
        for (const auto &m : knn) {
            if (m.size() < 2 || m[0].distance >= ratio * m[1].distance) continue;
            from.emplace_back(ref_kp[m[0].queryIdx * 4], ref_kp[m[0].queryIdx * 4 + 1]);
            to.emplace_back(query_kp[m[0].trainIdx * 4], query_kp[m[0].trainIdx * 4 + 1]);
        }
        *matches = (int)from.size();
        if (from.size() < 4) return 0;
        // A fixed seed: the same photo gives the same answer on every run.
        cv::theRNG().state = 0x5eed;
        std::vector<uint8_t> mask;
        cv::Mat H = cv::findHomography(from, to, cv::RANSAC, ransac_px, mask, 2000, 0.995);
        if (H.empty()) return 0;
        for (int i = 0; i < 9; i++) h[i] = H.at<double>(i / 3, i % 3);
        int inliers = 0;
        for (uint8_t m : mask) inliers += m ? 1 : 0;
        return inliers;
    });
}

int pc_cv_warp(const uint8_t *src, int src_width, int src_height, int channels, const double *h,
               uint8_t *dst, int dst_width, int dst_height) {
    return guarded([&] {
        if (channels < 1 || channels > 4) throw std::runtime_error("channels must be 1–4");
        cv::Mat s(src_height, src_width, CV_8UC(channels), const_cast<uint8_t *>(src));
        cv::Mat d(dst_height, dst_width, CV_8UC(channels), dst);
        cv::Mat H(3, 3, CV_64F, const_cast<double *>(h));
        cv::warpPerspective(s, d, H, d.size(), cv::INTER_LINEAR, cv::BORDER_TRANSPARENT);
        return 0;
    });
}

int pc_cv_perspective(const float *src_points, const float *dst_points, double *h) {
    return guarded([&] {
        std::vector<cv::Point2f> a, b;
        for (int i = 0; i < 4; i++) {
            a.emplace_back(src_points[2 * i], src_points[2 * i + 1]);
            b.emplace_back(dst_points[2 * i], dst_points[2 * i + 1]);
        }
        cv::Mat H = cv::getPerspectiveTransform(a, b);
        for (int i = 0; i < 9; i++) h[i] = H.at<double>(i / 3, i % 3);
        return 0;
    });
}
