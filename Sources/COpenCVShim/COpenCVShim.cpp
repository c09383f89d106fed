#include "COpenCVShim.h"

#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>
#include <opencv2/features2d.hpp>
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

int pc_cv_fit_homography(const float *from_xy, const float *to_xy, int count, float ransac_px, double *h, uint8_t *inlier) {
    return guarded([&] {
        if (count < 4) return 0;
        std::vector<cv::Point2f> from, to;
        for (int i = 0; i < count; i++) {
            from.emplace_back(from_xy[2 * i], from_xy[2 * i + 1]);
            to.emplace_back(to_xy[2 * i], to_xy[2 * i + 1]);
        }
        // A fixed seed: the same photo gives the same answer on every run.
        cv::theRNG().state = 0x5eed;
        std::vector<uint8_t> mask;
        cv::Mat H = cv::findHomography(from, to, cv::RANSAC, ransac_px, mask, 2000, 0.995);
        if (H.empty()) return 0;
        for (int i = 0; i < 9; i++) h[i] = H.at<double>(i / 3, i % 3);
        int inliers = 0;
        for (int i = 0; i < count; i++) {
            inlier[i] = i < (int)mask.size() && mask[i] ? 1 : 0;
            inliers += inlier[i];
        }
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
